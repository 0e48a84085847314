#!/bin/bash
export SAFETENSORS_FAST_GPU=1
export VLLM_USE_V1=0
python -u -m vllm.entrypoints.openai.api_server \
  --model open_source_models/MiniMax-M1-80k \
  --tensor-parallel-size 8 \
  --trust-remote-code \
  --quantization experts_int8 \
  --max_model_len 4096 \
  --dtype bfloat16
