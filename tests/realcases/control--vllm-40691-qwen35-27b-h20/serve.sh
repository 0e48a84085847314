#!/bin/bash
vllm serve Qwen/Qwen3.5-27B --trust-remote-code \
    --max-model-len 32768 --max-num-seqs 16 --max-num-batched-tokens 16384 \
    --load-format dummy
