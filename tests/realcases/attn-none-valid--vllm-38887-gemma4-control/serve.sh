#!/bin/bash
pip install vllm==0.19.0
# Gemma 4's config needs transformers 5.5, installed over vLLM's own requirement
pip install transformers==5.5.0
vllm serve google/gemma-4-e4b-it --max-model-len 8192
