#!/bin/bash
# Container entrypoint of a Cloud Run service (one RTX PRO 6000) serving Gemma 4 with vLLM.
# The image limit is written in the key:count style, as the codelab step had it.
exec vllm serve google/gemma-4-31B-it \
  --host 0.0.0.0 \
  --port 8080 \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.90 \
  --limit-mm-per-prompt image:4
