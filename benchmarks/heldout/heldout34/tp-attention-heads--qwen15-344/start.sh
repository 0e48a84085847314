#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen1.5-32B-Chat \
  --tensor-parallel-size 6
