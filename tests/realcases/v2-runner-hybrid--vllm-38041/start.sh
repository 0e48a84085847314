#!/bin/bash
# Qwen3.5 9B on one GH200 with the V2 model runner forced on
export VLLM_USE_V2_MODEL_RUNNER=1
vllm serve Qwen/Qwen3.5-9B \
  --quantization fp8 \
  --max-model-len 262144 \
  --enable-chunked-prefill \
  --enforce-eager
