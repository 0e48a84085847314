#!/bin/sh
python -O -u -m vllm.entrypoints.api_server \
  --host=0.0.0.0 \
  --port=7777 \
  --model=$HOME/models/vicuna-7b-v1.5-awq \
  --quantization=awq
