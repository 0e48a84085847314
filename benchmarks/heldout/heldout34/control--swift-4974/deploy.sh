#!/bin/bash
swift deploy \
    --model OpenGVLab/InternVL3-1B-Instruct \
    --adapters output/lora_InternVL3-1B-Instruct/checkpoint-100 \
    --infer_backend vllm
