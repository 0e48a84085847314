#!/bin/bash
# Gemma 4 31B on two 40 GB A100s, vLLM's own batching defaults
vllm serve google/gemma-4-31b-it --tensor-parallel-size 2 --max-model-len 16384
