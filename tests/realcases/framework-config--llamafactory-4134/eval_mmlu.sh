#!/bin/bash
CUDA_VISIBLE_DEVICES=0 llamafactory-cli eval \
    --model_name_or_path meta-llama/Meta-Llama-3-8B-Instruct \
    --template llama3 \
    --task mmlu \
    --split validation \
    --lang en \
    --n_shot 5 \
    --batch_size 1 \
    --infer_backend vllm
