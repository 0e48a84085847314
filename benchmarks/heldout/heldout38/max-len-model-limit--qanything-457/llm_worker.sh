#!/bin/bash
# the worker QAnything's container starts for that choice
python3 -m fastchat.serve.vllm_worker --host 0.0.0.0 --port 7801 \
    --controller-address http://0.0.0.0:7800 --worker-address http://0.0.0.0:7801 \
    --model-path /model_repos/CustomLLM/Qwen-14B-Chat --trust-remote-code \
    --tensor-parallel-size 1 --max-model-len 4096 --gpu-memory-utilization 0.85 \
    --dtype bfloat16 --conv-template qwen-7b-chat
