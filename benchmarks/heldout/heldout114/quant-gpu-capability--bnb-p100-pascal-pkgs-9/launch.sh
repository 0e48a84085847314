#!/bin/bash
# two Tesla P100 cards; the 4-bit bitsandbytes export of the R1 distill, split over both
vllm serve ./models/DeepSeek-R1-Distill-Qwen-32B-bnb-4bit \
  --tensor-parallel-size 2 \
  --max-model-len 10000 \
  --enforce-eager \
  --enable-reasoning \
  --reasoning-parser deepseek_r1 \
  --port 8123 \
  --served-model-name deepseek-32b \
  --gpu-memory-utilization 0.9
