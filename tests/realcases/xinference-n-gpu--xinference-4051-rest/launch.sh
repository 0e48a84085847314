#!/bin/bash
# the web UI's launch form, sent by hand: the vLLM engine on four GPUs, n_gpu left to its default
curl -X POST http://127.0.0.1:9997/v1/models -H 'Content-Type: application/json' -d '{
  "model_engine": "vLLM",
  "model_name": "qwen2.5-instruct",
  "model_type": "LLM",
  "model_size_in_billions": 72,
  "model_format": "pytorch",
  "quantization": "none",
  "replica": 1,
  "gpu_memory_utilization": 0.9,
  "max_model_len": 32768,
  "tensor_parallel_size": 4
}'
