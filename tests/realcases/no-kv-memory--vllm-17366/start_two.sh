#!/bin/bash
# two OpenAI servers of one w8a8 Qwen2.5-14B on GPU 0, 0.3 of the card each, V1 engine
docker run -itd --gpus='"device=0"' --name qwen_a -e VLLM_USE_V1=1 --shm-size 10g \
  -v /data/model/qwen2_5_14b_w8a8/:/data/model/ --network=host \
  vllm/vllm-openai:v0.8.5 \
  --model /data/model/ --max-model-len 4096 --gpu-memory-utilization 0.3 --port 8900

docker run -itd --gpus='"device=0"' --name qwen_b -e VLLM_USE_V1=1 --shm-size 10g \
  -v /data/model/qwen2_5_14b_w8a8/:/data/model/ --network=host \
  vllm/vllm-openai:v0.8.5 \
  --model /data/model/ --max-model-len 4096 --gpu-memory-utilization 0.3 --port 8901
