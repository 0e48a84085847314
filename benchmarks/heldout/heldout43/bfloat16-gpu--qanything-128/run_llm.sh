#!/bin/bash
# QAnything: bash ./run.sh -c local -i 0 -b vllm -m Qwen-7B-QAnything -t qwen-7b-qanything
# inside the qanything container this starts the FastChat worker below (gpu_memory_utilization default 0.81);
# the Triton embedding/rerank server and the OCR service run on the same GPU 0.
CUDA_VISIBLE_DEVICES=0 nohup python3 -m fastchat.serve.vllm_worker \
    --host 0.0.0.0 --port 7801 \
    --controller-address http://0.0.0.0:7800 \
    --worker-address http://0.0.0.0:7801 \
    --model-path ./model_repos/CustomLLM/Qwen-7B-QAnything \
    --trust-remote-code \
    --tensor-parallel-size 1 \
    --max-model-len 4096 \
    --gpu-memory-utilization 0.81 \
    --dtype bfloat16 \
    --block-size 32 \
    --conv-template qwen-7b-qanything > fschat_model_worker_7801.log 2>&1 &
