#!/bin/bash
# the 0.11.0 image at tensor parallel 2 with symmetric-memory all-reduce switched off
docker run --gpus all --ipc=host -p 8000:8000 -e VLLM_ALLREDUCE_USE_SYMM_MEM=0 vllm/vllm-openai:v0.11.0 \
  --model=openai/gpt-oss-120b \
  --tensor_parallel_size=2 \
  --gpu-memory-utilization=0.95
