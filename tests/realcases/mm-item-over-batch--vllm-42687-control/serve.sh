#!/bin/bash
# the same launch on H200s: vLLM's default batch budget here is 8192
vllm serve google/gemma-4-31b-it --tensor-parallel-size 2 --max-model-len 16384
