#!/bin/sh
# Pixtral 12B with Mistral's tokenizer on two GPUs, FP8 KV cache, up to four images per prompt
docker run --runtime nvidia --gpus all \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  --ipc=host -p 8000:8000 \
  vllm/vllm-openai:v0.6.3.post1 \
  --model mistralai/Pixtral-12B-2409 --tensor-parallel-size 2 \
  --max-model-len 32768 --max-seq-len-to-capture=32768 \
  --kv-cache-dtype fp8 --tokenizer_mode "mistral" \
  --limit-mm-per-prompt image=4
