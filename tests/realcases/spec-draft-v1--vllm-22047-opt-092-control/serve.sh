#!/bin/sh
python -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8000 \
  --model facebook/opt-6.7b --seed 42 -tp 1 --gpu_memory_utilization 0.8 \
  --speculative_config '{"model": "facebook/opt-125m", "num_speculative_tokens": 5}'
