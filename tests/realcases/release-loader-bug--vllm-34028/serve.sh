#!/bin/sh
# an llm-compressor FP8 upload of Mistral Small 3.2 read in Mistral's own format
vllm serve stelterlab/Mistral-Small-3.2-24B-Instruct-2506-FP8 \
  --tokenizer-mode mistral --config-format mistral --load-format mistral \
  --max-model-len 32768 --gpu-memory-utilization 0.8 \
  --limit-mm-per-prompt '{"image": 2}' \
  --enable-auto-tool-choice --tool-call-parser mistral
