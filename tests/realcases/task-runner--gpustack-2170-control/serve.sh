#!/bin/sh
# GPUStack's worker serving its local copy of Qwen3-Embedding-0.6B with the backend parameter --task=embed
vllm serve models/Qwen3-Embedding-0.6B --task=embed
