#!/usr/bin/env bash
# Serve the merged seq_cls fine-tune of Qwen2.5-VL-7B with the vLLM backend.
CUDA_VISIBLE_DEVICES=0 \
swift deploy \
    --model ./model \
    --infer_backend vllm \
    --max_new_tokens 2048 \
    --served_model_name Qwen2.5-VL-7B-Instruct \
    --max_model_len 48000 \
    --limit_mm_per_prompt '{"image": 1}'
