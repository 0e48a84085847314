#!/usr/bin/env bash
vllm serve neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8 --host 0.0.0.0 --port 8000 \
  --tensor-parallel-size 8 --seed 1234 --enable_prefix_caching --enable-chunked-prefill \
  --max-model-len 32000 --num-scheduler-steps 8
