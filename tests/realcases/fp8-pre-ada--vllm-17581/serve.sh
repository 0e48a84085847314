#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_LAUNCH_BLOCKING=1 vllm serve Qwen_Qwen3-30B-A3B-FP8/ \
  --dtype auto --api-key token-abc123 --host 0.0.0.0 --port 8000 \
  --tensor-parallel-size 2 --gpu-memory-utilization 0.95 --max-model-len 30000 \
  --cpu-offload-gb 0 --device cuda --disable-custom-all-reduce \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  --served-model-name AlexBefest/Qwen_QwQ-32B-AWQ --block-size 32 --max-seq-len-to-capture 30000
