#!/bin/bash
curl -X POST http://127.0.0.1:9997/v1/models \
  -H 'Content-Type: application/json' \
  -d '{
    "model_engine": "vllm",
    "model_name": "qwen-chat",
    "model_path": "/app/models/Qwen-7B-Chat",
    "model_format": "pytorch",
    "worker_ip": "10.0.6.242"
  }'
