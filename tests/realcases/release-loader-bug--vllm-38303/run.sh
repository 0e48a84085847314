#!/bin/sh
# NVIDIA's ModelOpt NVFP4 upload of MiniMax-M2.5 (FP8 KV cache) on the 0.18.0 image, four ranks with expert parallelism
docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.18.0 \
  nvidia/MiniMax-M2.5-NVFP4 \
  --tensor-parallel-size 4 --enable-expert-parallel \
  --gpu-memory-utilization 0.90 --max-model-len 32768 --max-num-seqs 64 \
  --no-enable-prefix-caching --trust-remote-code
