#!/bin/bash
docker run -itd --restart always --name llm_server_v8 \
  --gpus '"device=2,3,4,7"' --ipc=host \
  -e CUDA_VISIBLE_DEVICES=0,1,2,3 \
  -v /data/pretrained_models/Qwen3.8-Flash-Next-FP8/:/models/Qwen3.8-Flash-Next-FP8 \
  -p 8008:8008 \
  vllm/vllm-openai:qwen38-flash-next \
  --model /models/Qwen3.8-Flash-Next-FP8 \
  --served-model-name Qwen/Qwen3.8-Flash-Next-FP8 \
  --gpu-memory-utilization=0.90 --dtype auto --host 0.0.0.0 --port 8008 \
  --tensor-parallel-size=4 \
  --reasoning-parser qwen3 --enable-auto-tool-choice --tool-call-parser qwen3_xml \
  --max-num-seqs 256 --enable-prefix-caching --max-model-len 262144 \
  --moe-backend triton --gdn-prefill-backend triton
