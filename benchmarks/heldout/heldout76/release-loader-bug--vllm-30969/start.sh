#!/bin/bash
set -ex
MODEL="${MODEL:-RedHatAI/SmolLM3-3B-FP8-dynamic}"
exec python3 -m vllm.entrypoints.openai.api_server \
  --model "$MODEL" \
  --host 0.0.0.0 \
  --port 8000
