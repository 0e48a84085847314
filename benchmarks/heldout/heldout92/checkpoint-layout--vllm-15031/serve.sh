#!/bin/sh
# Gemma 3 12B fine-tuned with Unsloth, merged to 16-bit with save_pretrained_merged
vllm serve ./models/merged_16bit \
  --chat-template ./google--gemma-3-12b-it.jinja \
  --gpu-memory-utilization 0.9 \
  --max_model_len 8192
