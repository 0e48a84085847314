#!/bin/sh
exec vllm serve meta-llama/Meta-Llama-3-8B-Instruct \
  --speculative-config '{"method": "eagle", "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", "num_speculative_tokens": 2}'
