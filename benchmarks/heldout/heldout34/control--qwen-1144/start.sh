#!/bin/bash
python -m fastchat.serve.controller > controller.log 2>&1 &
python -m fastchat.serve.vllm_worker --model-path /home/qwen/lora/Qwen-7B-Chat-Int4/ \
  --tensor-parallel-size 1 --trust-remote-code --dtype float16 > model_worker.log 2>&1 &
python -m fastchat.serve.openai_api_server --host 0.0.0.0 --port 8001 > api_server.log 2>&1 &
