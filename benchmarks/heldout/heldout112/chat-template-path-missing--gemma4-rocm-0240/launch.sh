#!/bin/bash
vllm serve google/gemma-4-31B-it \
  --enable-auto-tool-choice \
  --tool-call-parser gemma4 \
  --chat-template examples/tool_chat_template_gemma4.jinja
