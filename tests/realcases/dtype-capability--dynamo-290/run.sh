#!/bin/bash
# Dynamo's quick start on a Volta workstation: the pip wheel's launcher with its vLLM engine
python3 -m venv venv
source venv/bin/activate
dynamo run out=vllm deepseek-ai/DeepSeek-R1-Distill-Qwen-14B
