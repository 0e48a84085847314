#!/bin/bash
export VLLM_USE_V2_MODEL_RUNNER=1
vllm serve Qwen/Qwen3.5-27B \
    --pipeline-parallel-size 4 \
    --speculative-config '{"method":"mtp","num_speculative_tokens":3}'
