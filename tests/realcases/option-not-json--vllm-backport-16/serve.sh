#!/bin/bash
# DeepSeek-V4-Flash-0731 with DSpark on four A100s
vllm serve deepseek-ai/DeepSeek-V4-Flash-0731 \
    --served-model-name beast \
    --tensor-parallel-size 4 \
    --max-model-len 204800 \
    --max-num-batched-tokens 8192 \
    --gpu-memory-utilization 0.98 \
    --speculative-config {"method":"dspark","num_speculative_tokens":7}
