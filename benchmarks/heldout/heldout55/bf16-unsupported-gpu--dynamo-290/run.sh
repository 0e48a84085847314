#!/bin/bash
# Dynamo's single-command runner with the vLLM engine as output, a 14B distilled model from the Hub
dynamo run out=vllm deepseek-ai/DeepSeek-R1-Distill-Qwen-14B
