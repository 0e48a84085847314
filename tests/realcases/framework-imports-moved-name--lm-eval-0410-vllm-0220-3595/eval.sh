#!/usr/bin/env bash
lm_eval --model vllm \
  --model_args pretrained=meta-llama/Llama-3.1-8B-Instruct,tensor_parallel_size=1,gpu_memory_utilization=0.85 \
  --tasks ifeval --apply_chat_template --batch_size auto
