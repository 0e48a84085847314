#!/bin/bash
# the local supervisor and worker, then the distilled 32B on the vLLM engine over four GPUs
xinference-local --host 0.0.0.0 --port 5000 &
sleep 30
xinference launch --endpoint http://127.0.0.1:5000 --model-name deepseek-r1-distill-qwen \
  --model-type LLM --model-engine vllm --model-format pytorch --size-in-billions 32 --n-gpu 4
