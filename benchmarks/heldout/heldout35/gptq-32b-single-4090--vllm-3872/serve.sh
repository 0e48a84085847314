#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model ./models/Qwen/Qwen1.5-32B-Chat-GPTQ-Int4 \
  --quantization gptq \
  --max-model-len 2048 \
  --served-model-name qwen \
  --port 9000 \
  --max-num-seq=2 \
  --gpu-memory-utilization 0.92
