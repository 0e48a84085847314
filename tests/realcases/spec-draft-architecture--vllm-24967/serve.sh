#!/bin/sh
exec vllm serve Qwen/Qwen2-7B-Instruct --port 8000 \
  --speculative-config '{"method": "eagle", "model": "yuhuili/EAGLE-Qwen2-7B-Instruct", "num_speculative_tokens": 4}'
