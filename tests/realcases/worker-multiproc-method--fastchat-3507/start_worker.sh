#!/bin/bash
python3 -m fastchat.serve.controller &
python3 -m fastchat.serve.vllm_worker \
    --model-path lmsys/vicuna-7b-v1.5 \
    --num-gpus 2 \
    --controller-address http://localhost:21001
