#!/bin/sh
# g4dn.xlarge: one Tesla T4
python3 -m vllm.entrypoints.openai.api_server \
  --model ./models/falcon-7b-instruct \
  --trust-remote-code \
  --host 0.0.0.0 --port 8000
