#!/bin/bash
# the V1 engine switched on, with n-gram speculation
export VLLM_USE_V1=1
vllm serve Qwen/Qwen2.5-7B-Instruct \
    --speculative-model "[ngram]" \
    --num-speculative-tokens 5 \
    --ngram-prompt-lookup-max 4
