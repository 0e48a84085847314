#!/bin/bash
# the generation server for GRPO, on the second GPU, through the Transformers backend
CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=1 trl vllm-serve --model Qwen/Qwen2.5-VL-3B-Instruct \
    --tensor-parallel-size 1 --port 8000 --enforce_eager --vllm_model_impl transformers
