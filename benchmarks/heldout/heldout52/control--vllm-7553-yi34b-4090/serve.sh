#!/bin/sh
# Yi-1.5-34B-Chat from a local folder on the last four 4090s of an eight-card box.
CUDA_VISIBLE_DEVICES=4,5,6,7 python -m vllm.entrypoints.openai.api_server \
  --served-model-name Yi-1.5-34B-Chat \
  --model ./models/Yi-1.5-34B-Chat/ \
  --port 8001 \
  --gpu-memory-utilization 0.9 \
  --swap-space 0 \
  --tensor-parallel-size 4
