#!/bin/sh
python -m huggingfaceserver \
  --model_id=Qwen/Qwen2.5-1.5B-Instruct \
  --model_name=debug-model \
  --max_model_len=256
