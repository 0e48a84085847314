#!/bin/bash
# serve the merged sequence-classification fine-tune (12 labels) through swift's vLLM backend
CUDA_VISIBLE_DEVICES=0 swift deploy \
    --model output/cls-run/checkpoint-merged \
    --task_type seq_cls \
    --num_labels 12 \
    --infer_backend vllm \
    --host 0.0.0.0 \
    --port 8000
