#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model unsloth/Mistral-Small-24B-Instruct-2501-unsloth-bnb-4bit \
  --tool-call-parser mistral \
  --enable-auto-tool-choice \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.98 \
  --download-dir ./models_cache \
  --host 0.0.0.0 \
  --port 8000 \
  --quantization bitsandbytes \
  --load-format bitsandbytes
