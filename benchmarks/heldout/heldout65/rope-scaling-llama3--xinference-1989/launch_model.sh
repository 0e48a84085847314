#!/bin/sh
# CLI form of the web-UI launch of the registered 405B GPTQ model with the vLLM engine
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-engine vllm \
  --model-name llama-3.1-instruct \
  --model-format gptq \
  --size-in-billions 405 \
  --quantization Int4 \
  --model-path /models/Meta-Llama-3.1-405B-Instruct-GPTQ-INT4 \
  --n-gpu 8
