#!/bin/bash
vllm serve neuralmagic/Qwen2.5-VL-72B-Instruct-quantized.w4a16 \
    --tensor-parallel-size 4 --dtype half --max-model-len 8192
