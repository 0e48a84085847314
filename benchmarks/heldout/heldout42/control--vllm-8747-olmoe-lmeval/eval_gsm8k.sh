#!/bin/bash
# GSM8K through lm-eval's vLLM backend, OLMoE split over two GPUs
VLLM_WORKER_MULTIPROC_METHOD=spawn lm_eval --model vllm \
  --model_args pretrained=allenai/OLMoE-1B-7B-0924-Instruct,tensor_parallel_size=2 \
  --tasks gsm8k --num_fewshot 5 --batch_size auto
