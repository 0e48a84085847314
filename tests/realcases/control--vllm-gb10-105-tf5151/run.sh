#!/bin/bash
sudo docker run --rm -it \
  --gpus all --ipc=host --network host \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  -e VLLM_USE_V2_MODEL_RUNNER=1 \
  ghcr.io/timothystewart6/vllm-gb10:v0.28.0-gb10.0 \
  bash -c "pip install transformers==5.15.1 && vllm serve unsloth/gemma-4-12b-it-NVFP4 --host 0.0.0.0 --port 8000 --gpu-memory-utilization 0.25 --max-model-len 32768"
