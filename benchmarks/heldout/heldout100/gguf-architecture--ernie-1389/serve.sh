#!/bin/sh
vllm serve /data/models/ERNIE-4.5-21B-A3B-PT-GGUF/ERNIE-4.5-21B-A3B-PT-Q4_K_M.gguf \
  --served-model-name ernie-4.5-21b \
  --port 8000
