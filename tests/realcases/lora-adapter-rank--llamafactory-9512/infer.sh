#!/bin/bash
python scripts/vllm_infer.py \
  --model_name_or_path Qwen/Qwen2.5-7B-Instruct \
  --adapter_name_or_path saves/qwen2.5-7b/lora/sft \
  --template qwen \
  --dataset alpaca_zh_demo \
  --save_name generated_predictions.jsonl
