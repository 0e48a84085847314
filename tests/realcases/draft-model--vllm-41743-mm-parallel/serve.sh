#!/bin/bash
vllm serve google/gemma-4-31B-it --port 8000 --tensor-parallel-size 2 --max-num-seqs 8 --max-model-len 32768 \
  --speculative-config '{"method": "eagle3", "model": "/models/gemma4-31b-peagle", "num_speculative_tokens": 5, "parallel_drafting": true}'
