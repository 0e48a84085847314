#!/bin/sh
vllm serve stelterlab/Mistral-Small-3.2-24B-Instruct-2506-FP8 \
  --host 0.0.0.0 --port 30000 \
  --served-model-name mistral-llm \
  --tokenizer-mode mistral --config-format mistral --load-format mistral \
  --dtype bfloat16 \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.7 \
  --max-num-seqs 10 \
  --limit-mm-per-prompt '{"image": 4}' \
  --enable-auto-tool-choice --tool-call-parser mistral
