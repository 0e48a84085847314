#!/usr/bin/env bash
# Accuracy check through lm-eval's vLLM backend.
lm_eval --model vllm \
  --model_args pretrained=Qwen/Qwen3-8B,tensor_parallel_size=1,max_model_len=4096,gpu_memory_utilization=0.8 \
  --tasks gsm8k --batch_size auto
