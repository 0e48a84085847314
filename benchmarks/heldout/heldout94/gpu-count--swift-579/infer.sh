#!/bin/sh
# merged Qwen1.5-4B-Chat fine-tune, vLLM backend, 8-way tensor parallel (only GPU 0 visible)
RAY_memory_monitor_refresh_ms=0 CUDA_VISIBLE_DEVICES=0 swift infer \
    --infer_backend vllm \
    --ckpt_dir ./checkpoint-5890-merged \
    --custom_val_dataset_path data/sft_prompt_test.jsonl \
    --max_length -1 \
    --use_flash_attn true \
    --max_new_tokens 2300 \
    --temperature 0.01 \
    --top_p 0.99 \
    --repetition_penalty 1. \
    --verbose false \
    --do_sample true \
    --val_dataset_sample -1 \
    --tensor_parallel_size 8
