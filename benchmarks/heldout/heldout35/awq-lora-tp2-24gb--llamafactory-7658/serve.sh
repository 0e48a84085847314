#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1 python -m vllm.entrypoints.openai.api_server \
  --trust-remote-code \
  --served-model-name custom-qwen \
  --model /root/autodl-tmp/DeepSeek-R1-Distill-Qwen-32B-AWQ \
  --tensor-parallel-size 2 \
  --gpu_memory_utilization 0.7 \
  --max_num_seqs 4 \
  --max_model_len 3000 \
  --enable-lora \
  --dtype float16 \
  --quantization awq_marlin \
  --lora-modules lora=/root/autodl-tmp/LLaMA-Factory/saves/DeepSeek-R1-32B-Distill/lora/train_2025-04-09-14-50-51
