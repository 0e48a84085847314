#!/bin/sh
# Gemma 3 27B as a single GGUF file, original config from the Hub
vllm serve "gemma-3-27b-it-Q4_K_M.gguf" \
  --trust-remote-code \
  --hf-config-path google/gemma-3-27b-it
