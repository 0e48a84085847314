#!/bin/bash
python3.11 LLaMA-Factory/scripts/vllm_infer.py \
    --model_name_or_path Qwen/Qwen2.5-VL-7B-Instruct \
    --dataset my_dataset \
    --dataset_dir /data/dataset \
    --template qwen2_vl \
    --save_name /predicts/predictions.jsonl
