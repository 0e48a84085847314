#!/bin/sh
# model weights are mounted at /mnt/models; llava1.5-7b is meant as the served name
vllm serve llava1.5-7b \
  --model /mnt/models/ \
  --trust-remote-code \
  --load-format safetensors \
  --tensor-parallel-size 2 \
  --chat-template template_llava.jinja
