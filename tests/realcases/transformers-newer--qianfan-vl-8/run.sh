#!/bin/bash
CUDA_VISIBLE_DEVICES=6 vllm serve ./Qianfan-VL-8B --host 0.0.0.0 --port 9000 \
  --gpu-memory-utilization 0.95 --tensor-parallel-size=1 --dtype float16 \
  --served-model-name Qianfan-VL-8B \
  --hf-overrides '{"architectures":["InternVLChatModel"],"model_type":"internvl_chat"}'
