#!/usr/bin/env bash
python -m vllm.entrypoints.openai.api_server \
  --model internlm/internlm2-chat-7b \
  --trust-remote-code
