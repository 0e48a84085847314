#!/bin/bash
# what the GPUStack worker runs for this deployment (V0 engine, GPUStack's default context length)
export VLLM_USE_V1=0
vllm serve Qwen/Qwen2.5-VL-7B-Instruct \
  --max-model-len 8192 \
  --host 0.0.0.0 --port 40000 \
  --served-model-name qwen2.5-vl-7b-instruct
