#!/bin/sh
# LLaMA-Factory batch inference through vLLM
python scripts/vllm_infer.py \
  --model_name_or_path OpenGVLab/InternVL3-8B-hf \
  --template intern_vl \
  --dataset mllm_demo
