#!/usr/bin/env bash
# Llama 3.2 11B Vision with an adapter fine-tuned on our screenshots (OpenAI server).
python -m vllm.entrypoints.openai.api_server \
  --model meta-llama/Llama-3.2-11B-Vision-Instruct \
  --enable-lora --lora-modules screens=/adapters/llama32-vision-screens \
  --max-model-len 8192 --max-num-seqs 16 --enforce-eager
