#!/bin/bash
# two GPUs for a local Xinference, then a language model on its vllm engine
export CUDA_VISIBLE_DEVICES=0,1
xinference-local --log-level debug --host 0.0.0.0 --port 9995 &
sleep 30
xinference launch --endpoint http://127.0.0.1:9995 --model-name deepseek-r1-distill-qwen \
  --model-engine vllm --model-format pytorch --size-in-billions 7
