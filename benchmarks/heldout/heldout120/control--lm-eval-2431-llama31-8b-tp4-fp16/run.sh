#!/bin/bash
lm_eval --model vllm \
  --model_args pretrained=meta-llama/Llama-3.1-8B-Instruct,tensor_parallel_size=4,dtype=float16,gpu_memory_utilization=0.8 \
  --tasks multimedqa,tmmluplus,toxigen \
  --batch_size auto \
  --output_path /mnt/out_disk/llm_eval_result/meta_llama31_8b_instruct \
  --trust_remote_code
