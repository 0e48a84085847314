#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --dtype float16 \
  --trust-remote-code \
  --model ./models/DeepSeek-Coder-V2-Lite-Instruct \
  --tensor-parallel-size 2
