#!/usr/bin/env bash
XINFERENCE_MODEL_SRC=modelscope xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch --model-engine vllm \
  --model-name internlm2.5-chat \
  --size-in-billions 7 \
  --model-format gptq \
  --quantization Int4
