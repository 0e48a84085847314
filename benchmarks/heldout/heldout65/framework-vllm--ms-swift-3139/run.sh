#!/bin/sh
# Batch inference of Qwen2.5-VL-72B over a dataset on two H20s, with vLLM's V1 engine switched on
export VLLM_USE_V1=1
CUDA_VISIBLE_DEVICES=0,1 swift infer \
  --model Qwen/Qwen2.5-VL-72B-Instruct \
  --infer_backend vllm \
  --tensor_parallel_size 2 \
  --val_dataset data/val.jsonl
