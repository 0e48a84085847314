#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model cyberagent/calm3-22b-chat \
  --max-num-seqs 12 \
  --quantization fp8
