#!/bin/bash
docker run --gpus all --privileged --ipc=host -p 8005:8005 \
  -e CUDA_DEVICE_ORDER=PCI_BUS_ID -e CUDA_VISIBLE_DEVICES=0,1 -e NCCL_CUMEM_ENABLE=0 \
  -v /data/models/Deepseek:/models \
  vllm/vllm-openai:v0.20.0 \
  /models/DeepSeek-V4-Flash --trust-remote-code --kv-cache-dtype fp8 --block-size 256 \
  --enable-expert-parallel --tensor-parallel-size 2 \
  --attention_config.use_fp4_indexer_cache=True --tokenizer-mode deepseek_v4 \
  --tool-call-parser deepseek_v4 --enable-auto-tool-choice --reasoning-parser deepseek_v4 \
  --host 0.0.0.0 --served-model-name VLLM-MODEL --gpu-memory-utilization 0.95 \
  --async-scheduling --enable-prefix-caching --max-num-seqs 2
