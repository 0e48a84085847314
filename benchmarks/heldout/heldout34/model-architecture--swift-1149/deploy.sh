#!/bin/bash
CUDA_VISIBLE_DEVICES=6,7 swift deploy \
  --model_type internvl-chat-v1_5 \
  --model_id_or_path OpenGVLab/InternVL-Chat-V1-5 \
  --port 23333 \
  --infer_backend vllm
