#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model llava-hf/llava-1.5-7b-hf \
  --chat-template ./template_llava.jinja
