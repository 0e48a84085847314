#!/bin/bash
# the Gemma 4 recipe's command, run from a fresh virtual environment (no vLLM checkout here)
vllm serve google/gemma-4-26B-A4B-it \
  --tensor-parallel-size 1 \
  --enable-auto-tool-choice \
  --tool-call-parser gemma4 \
  --chat-template examples/tool_chat_template_gemma4.jinja \
  --language-model-only \
  --reasoning-parser gemma4
