#!/bin/bash
# swift's example inference entry (examples/pytorch/llm/llm_infer.py calls the same infer_main as `swift infer`),
# vLLM backend, on a fine-tuned Qwen1.5-14B checkpoint, all eight GPUs visible
RAY_memory_monitor_refresh_ms=0 CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python examples/pytorch/llm/llm_infer.py \
    --infer_backend vllm \
    --ckpt_dir ./output/qwen1half_14b_sft/checkpoint-800 \
    --custom_val_dataset_path data/prompts_test.jsonl \
    --max_length 9800 \
    --use_flash_attn true \
    --max_new_tokens 2048 \
    --temperature 0.01 \
    --top_p 0.99 \
    --repetition_penalty 1. \
    --verbose false \
    --do_sample true \
    --val_dataset_sample -1 \
    --tensor_parallel_size 100
