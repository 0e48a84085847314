#!/bin/sh
docker run -d --name Qwen3-Coder-480B-A35B-Instruct-GGUF \
  --runtime nvidia --gpus '"device=0,1,2,3,4,5,6,7"' \
  -v /xinference/my_model/Qwen3-Coder-480B-A35B-Instruct-GGUF:/root/.cache/modelscope/Qwen3-Coder-480B-A35B-Instruct-GGUF \
  -p 8056:8081 --ipc=host \
  vllm/vllm-openai:v0.10.2 \
  --api-key "${API_KEY}" \
  --model /root/.cache/modelscope/Qwen3-Coder-480B-A35B-Instruct-GGUF/Qwen3-Coder-480B-A35B-Instruct-Q4_K_M-Merge.gguf \
  --served-model-name Qwen3-Coder-480B-A35B-Instruct \
  --enable-auto-tool-choice \
  --tool-call-parser qwen3_coder \
  --gpu-memory-utilization 0.85 \
  --tensor-parallel-size 8 \
  --reasoning-parser qwen3 \
  --max-model-len 50000 \
  --port 8081
