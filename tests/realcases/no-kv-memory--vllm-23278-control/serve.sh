#!/bin/bash
vllm serve openai/gpt-oss-120b --max-model-len 100000
