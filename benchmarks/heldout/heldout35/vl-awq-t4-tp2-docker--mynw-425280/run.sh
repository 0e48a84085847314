#!/bin/sh
docker run --gpus all -d -p 8000:8000 --name qwen2.5-vl-7b \
  --ipc=host \
  --pids-limit -1 \
  --security-opt seccomp=unconfined \
  -v /root/models/qwen/Qwen2___5-VL-7B-Instruct-AWQ:/model \
  -e HF_DATASETS_OFFLINE=1 \
  -e TRANSFORMERS_OFFLINE=1 \
  -e OMP_NUM_THREADS=16 \
  vllm/vllm-openai:latest \
  --model /model \
  --tensor-parallel-size 2 \
  --max-model-len 16384 \
  --gpu-memory-utilization 0.9 \
  --trust-remote-code
