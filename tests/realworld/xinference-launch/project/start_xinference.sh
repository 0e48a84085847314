#!/bin/bash
# Xinference supervisor+worker on this machine, then the model on the vLLM engine.
export XINFERENCE_HOME=/data/xinference

xinference-local --host 0.0.0.0 --port 9997 &
sleep 30

xinference launch --model-engine vllm -u custom-llama-3.1-8b-instruct \
    --model-name custom-llama-3.1-8b-instruct --size-in-billions 8 \
    --model-format pytorch --quantization none \
    --gpu_memory_utilization 0.9 --max_model_len 25600

# the embedding model runs on sentence-transformers, not vLLM
xinference launch --model-name bge-m3 --model-type embedding
