#!/bin/bash
# a local Qwen3.5 GGUF file, with the original repository named for config and tokenizer
vllm serve /models/Qwen3.5-27B-Q4_K_M.gguf \
  --hf-config-path Qwen/Qwen3.5-27B \
  --tokenizer Qwen/Qwen3.5-27B \
  --max-model-len 32768
