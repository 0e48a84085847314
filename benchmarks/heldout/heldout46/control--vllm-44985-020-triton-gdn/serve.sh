#!/bin/bash
CUDA_VISIBLE_DEVICES=6,7 vllm serve Qwen/Qwen3.5-9B --served-model-name gemma4-baseline \
  --host 0.0.0.0 --port 8002 --max-model-len 32768 --gdn-prefill-backend triton \
  --tensor-parallel-size 2 --trust-remote-code --max-num-seqs 64 --attention-backend flash_attn \
  --allowed-local-media-path /
