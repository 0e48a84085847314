#!/usr/bin/env bash
vllm serve Qwen/Qwen3-8B --port 8000 \
  --structured-outputs-config '{"backend": "lm-format-enforcer"}'
