#!/bin/bash
docker run -itd --gpus '"device=4,5,6,7"' --shm-size=128g \
    -e NCCL_DEBUG=INFO -e NCCL_P2P_DISABLE=1 \
    --name inference_model_qwen3_32b -p 8000:8000 -v /data/models:/models \
    vllm/vllm-openai:v0.8.5.post1 \
    --model /models/Qwen3-32B/ --served-model-name helium --disable-log-requests \
    --gpu-memory-utilization 0.9 --max-model-len 16384 --pipeline-parallel-size 1 --port 8000 \
    --tensor-parallel-size 4 --enable-auto-tool-choice --tool-call-parser hermes \
    --enable-reasoning --reasoning-parser qwen3
