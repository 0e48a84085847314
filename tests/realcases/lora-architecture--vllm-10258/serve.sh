#!/usr/bin/env bash
# Serve Qwen2-VL with a LoRA adapter trained for document OCR.
vllm serve Qwen/Qwen2-VL-7B-Instruct \
  --enable-lora \
  --lora-modules ocr-lora=/models/qwen2vl-ocr-lora \
  --max-model-len 8192
