#!/bin/sh
vllm serve deepseek-ai/DeepSeek-V2-Lite-Chat --tensor-parallel-size 4 --decode-context-parallel-size 4 --enforce-eager
