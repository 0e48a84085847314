#!/bin/sh
# The recipe's 8-GPU command with the FP8 checkpoint under plain tensor parallelism
vllm serve Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8 \
  --tensor-parallel-size 8 \
  --max-model-len 32000 \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder
