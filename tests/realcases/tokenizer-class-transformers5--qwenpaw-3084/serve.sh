#!/bin/sh
vllm serve ./CoPaw-Flash-9B --port 8000 --tensor-parallel-size 1 --max-model-len 262144 \
  --reasoning-parser qwen3 --enable-auto-tool-choice --tool-call-parser qwen3_xml --trust_remote_code
