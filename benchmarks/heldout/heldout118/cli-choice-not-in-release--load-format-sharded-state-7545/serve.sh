#!/bin/bash
# Load a checkpoint that was saved pre-sharded per TP rank (save_sharded_state example).
vllm serve /models/llama3-8b-instruct-sharded-tp2 \
  --load-format sharded_state \
  --tensor-parallel-size 2
