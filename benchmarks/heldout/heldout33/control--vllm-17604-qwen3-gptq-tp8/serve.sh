#!/bin/sh
VLLM_USE_MODELSCOPE=true vllm serve /data1/llm-models/qwen/Qwen3-235B-A22B-GPTQ-Int4 \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  --gpu-memory-utilization 0.85 -tp 8 --enforce-eager \
  --served-model-name qwq-235b-gptq-int4 --trust-remote-code
