#!/bin/bash
vllm serve /input1/Qwen3.5-9B --port 8000 --tensor-parallel-size 1 --max-model-len 8192 \
  --reasoning-parser qwen3 --enable-auto-tool-choice --tool-call-parser qwen3_coder \
  --served-model-name Qwen3.5-9B
