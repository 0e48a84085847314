#!/bin/sh
# xinference-local already running (pip install, not docker); CLI form of the web-UI launch
xinference register --model-type LLM --file register_model.json --persist
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name qwen2.5-vl-72b-pointer-awq \
  --model-format awq \
  --quantization Int4 \
  --size-in-billions 72 \
  --n-gpu 4
