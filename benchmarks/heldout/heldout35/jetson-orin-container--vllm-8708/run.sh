#!/bin/sh
sudo docker run --runtime nvidia \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  --env "HUGGING_FACE_HUB_TOKEN=$HF_TOKEN" \
  --env "HF_HOME=/root/.cache/huggingface" \
  --env "TRANSFORMERS_CACHE=/root/.cache/huggingface" \
  -p 8000:8000 \
  --ipc=host \
  dustynv/vllm:r36.4.0 \
  vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.5 --enforce-eager --enable-prefix-caching --enable-chunked-prefill
