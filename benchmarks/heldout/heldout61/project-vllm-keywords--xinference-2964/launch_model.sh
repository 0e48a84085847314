#!/bin/sh
# CLI form of the web-UI launch; n_gpu_layers was filled in the form as well
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-name deepseek-r1-distill-qwen \
  --model-type LLM \
  --model-engine vLLM \
  --model-format gptq \
  --size-in-billions 1_5 \
  --quantization Int4 \
  --n-gpu 2 \
  --n_gpu_layers 2
