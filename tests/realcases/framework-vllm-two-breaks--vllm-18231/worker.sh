#!/bin/bash
# the vLLM worker of a FastChat network (controller and API server run beside it)
python3 -m fastchat.serve.vllm_worker \
  --model-path mistralai/Mistral-7B-v0.1 \
  --gpu-memory-utilization 0.4 \
  --max-model-len 16300 \
  --controller-address http://controller:21001 \
  --worker-address http://worker:21002 --host 0.0.0.0 --port 21002
