#!/bin/bash
# run inside the container, against the local supervisor
xinference launch --model-name qwen1.5-chat --size-in-billions 72 --model-format gptq \
    --gpu_memory_utilization 0.86 --quantization Int4 --tensor_parallel_size 4 \
    --max_model_len 2048 -e http://0.0.0.0:9997
