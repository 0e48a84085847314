#!/bin/bash
# gpt-oss-120b on a DGX Spark (GB10); first of the reporter's attempts, with the
# attention backend forced
export VLLM_USE_FLASHINFER_MOE_MXFP4_BF16=1
export VLLM_ATTENTION_BACKEND=XFORMERS
export VLLM_USE_V1=0
vllm serve openai/gpt-oss-120b \
  --quantization mxfp4 \
  --dtype bfloat16 \
  --max-model-len 16384 \
  --no-enable-prefix-caching
