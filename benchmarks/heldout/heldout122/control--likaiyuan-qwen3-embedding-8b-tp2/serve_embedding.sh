#!/bin/bash
# Embedding service for a RAG stack: Qwen3-Embedding-8B from a local directory, split over two GPUs.
vllm serve /mnt/Qwen3-Embedding-8B/ \
  --tensor-parallel-size 2 \
  --trust-remote-code \
  --host 0.0.0.0
