#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model microsoft/llava-med-v1.5-mistral-7b \
  --chat-template ./template_llava.jinja
