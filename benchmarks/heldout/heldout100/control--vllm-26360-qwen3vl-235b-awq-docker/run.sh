#!/bin/sh
docker run --log-opt max-size=10m --log-opt max-file=1 --rm -it \
  --gpus '"device=0,1"' -p 8000:8000 \
  -e VLLM_SKIP_SPECIAL_TOKENS=true \
  vllm/vllm-openai:v0.11.0 \
  --model QuantTrio/Qwen3-VL-235B-A22B-Thinking-AWQ \
  --gpu-memory-utilization 0.95 \
  --max-model-len 100000 \
  --trust-remote-code \
  --swap-space 32 \
  --tensor-parallel-size 2 \
  --port 8000 \
  --max-num-seqs 32 \
  --tokenizer-mode auto \
  --no-enable-prefix-caching \
  --enforce-eager
