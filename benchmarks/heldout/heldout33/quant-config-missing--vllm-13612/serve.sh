#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen1.5-7B-Chat --trust-remote-code \
  -q gptq --dtype float16 --gpu-memory-utilization 0.6
