#!/bin/bash
vllm serve openai/gpt-oss-20b
