#!/bin/sh
# vicuna-13b-v1.5 served from its Hugging Face cache snapshot, asking for safetensors weights.
python3 -u -m vllm.entrypoints.openai.api_server --host 0.0.0.0 \
  --model /home/huggingface_models/models--lmsys--vicuna-13b-v1.5/snapshots/3deb0106f72a3a433f0c6ea0cb978bdf14bcd3a6 \
  --tensor-parallel-size 2 --load-format safetensors --port 8401
