#!/bin/bash
vllm serve deepseek-ai/DeepSeek-V3.2-Exp \
    --tensor-parallel-size 8 \
    --max-model-len 65536 \
    --port 8000
