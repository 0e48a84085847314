#!/bin/bash
vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 \
    --max-model-len 32768 \
    --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}'
