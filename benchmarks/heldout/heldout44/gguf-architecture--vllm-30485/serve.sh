#!/bin/bash
vllm serve ./models/Qwen3-VL-8B-Instruct-Q4_K_M.gguf \
  --tokenizer Qwen/Qwen3-VL-8B-Instruct \
  --max-model-len 8192
