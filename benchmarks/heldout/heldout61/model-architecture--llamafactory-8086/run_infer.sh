#!/bin/sh
# batch inference with LLaMA-Factory's vLLM script on the fine-tuned InternVL3-8B-hf checkpoint
python scripts/vllm_infer.py \
  --model_name_or_path ./models/InternVL3-8B-hf \
  --template intern_vl \
  --dataset mllm_demo \
  --save_name generated_predictions.jsonl
