#!/bin/bash
xinference launch --model-name Qwen3-Thinking --model-type LLM --model-engine vLLM --model-format fp8 \
    --size-in-billions 235 --quantization fp8 --n-gpu auto --replica 1 --n-worker 1 --reasoning_content false \
    --gpu_memory_utilization 0.9 --max_model_len 32768 --tensor_parallel_size 4 --enable_chunked_prefill true \
    --disable-virtual-env
