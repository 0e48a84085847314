#!/bin/bash
vllm serve openai/gpt-oss-120b
