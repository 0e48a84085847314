#!/bin/sh
# CLI form of the logged launch: Qwen3-VL-Instruct 8B, vLLM engine, GPU 0
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name Qwen3-VL-Instruct \
  --model-type LLM \
  --model-format pytorch \
  --size-in-billions 8 \
  --quantization none \
  --gpu-idx 0 \
  --gpu_memory_utilization 0.8 \
  --limit_mm_per_prompt '{"image": 5}'
