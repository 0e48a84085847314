#!/bin/bash
export VLLM_USE_V1=0
vllm serve deepseek-ai/DeepSeek-V2-Lite --trust-remote-code --tensor-parallel-size 2
