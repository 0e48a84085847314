#!/bin/bash
vllm serve mistralai/Ministral-3-8B-Base-2512 \
  --host 127.0.0.1 --port 18001 \
  --language-model-only
