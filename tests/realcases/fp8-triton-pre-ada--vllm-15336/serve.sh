#!/bin/bash
vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --trust-remote-code --max-model-len 32768 --gpu-memory-utilization 0.95
