#!/bin/bash
# Command-R v01 at its advertised 128k context on four A100s
python -m vllm.entrypoints.openai.api_server \
  --model CohereForAI/c4ai-command-r-v01 \
  --tensor-parallel-size 4 \
  --max-model-len 131072
