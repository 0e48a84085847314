#!/usr/bin/env bash
# OpenAI-compatible server for InternLM2 20B chat
python -m vllm.entrypoints.openai.api_server \
  --model internlm/internlm2-chat-20b \
  --trust-remote-code
