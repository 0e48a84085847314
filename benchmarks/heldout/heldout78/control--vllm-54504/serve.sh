#!/bin/sh
vllm serve pipecat-ai/phonellm-alpha-1 \
  --trust-remote-code \
  --enable-prefix-caching
