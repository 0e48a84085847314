#!/usr/bin/env bash
# OpenAI-compatible server for DeepSeek-VL2 on one A100; nothing names the model class.
set -euo pipefail
python -m vllm.entrypoints.openai.api_server \
    --model deepseek-ai/deepseek-vl2 \
    --trust-remote-code \
    --max-model-len 8192 \
    --port 8000
