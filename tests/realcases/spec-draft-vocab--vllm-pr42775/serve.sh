#!/bin/bash
vllm serve /models/DeepSeek-R1-Distill-Qwen-32B-FP8 \
    --tensor-parallel-size 2 \
    --max-model-len 32768 \
    --speculative-config '{"method": "draft_model", "model": "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "num_speculative_tokens": 4}'
