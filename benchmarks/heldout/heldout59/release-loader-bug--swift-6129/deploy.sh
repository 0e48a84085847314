#!/bin/sh
export CUDA_VISIBLE_DEVICES=0
swift deploy \
    --host 0.0.0.0 \
    --port 8000 \
    --model model/Qwen/Qwen2.5-VL-7B-Instruct \
    --adapters output/Seq-CLS-Qwen2.5-VL-7B-SFT-LoRA/checkpoint-18000 \
    --merge_lora true \
    --infer_backend vllm \
    --task_type seq_cls \
    --num_labels 284
