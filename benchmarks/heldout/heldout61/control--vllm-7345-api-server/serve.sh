#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model /mnt/models/ \
  --trust-remote-code \
  --load-format safetensors \
  --tensor-parallel-size 2 \
  --chat-template template_llava.jinja
