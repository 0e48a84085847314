#!/bin/bash
vllm serve Qwen/Qwen3-32B --port 10002 --uvicorn-log-level debug \
  --enable-log-outputs --enable-log-requests --trust-remote-code \
  --max-model-len 4096 --served-model-name qwen3-32b-eagle3 \
  --speculative-config '{"model": "AngelSlim/Qwen3-32B_eagle3", "num_speculative_tokens": 5, "method": "eagle3", "draft_tensor_parallel_size": 1}'
