#!/bin/bash
# a KV block size above 32 on an NVIDIA GPU (the comment names no model or size: stand-ins)
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --block-size 64
