#!/bin/bash
# evaluate the regression fine-tune with the vLLM backend
export EVAL_MODEL_PATH=./models/qwen2vl-2b-regression/checkpoint-best
export CUSTOM_DATA_PATH=./data/rough_sort_val.jsonl
CUDA_VISIBLE_DEVICES=0,1,2,3 \
MAX_PIXELS=1003520 \
IS_EVAL=true \
swift infer \
    --custom_register_path ./rough_sort/dataset.py \
    --model ${EVAL_MODEL_PATH} \
    --infer_backend vllm \
    --temperature 0 \
    --val_dataset rough_sort \
    --result_path ./eval_result_qwen2b_vllm.jsonl \
    --limit_mm_per_prompt '{"image": 2}'
