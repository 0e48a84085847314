#!/bin/sh
xinference-local -H 0.0.0.0 &
sleep 30
# CLI form of the web-UI launch of a rerank model with the vLLM engine
xinference launch \
  --endpoint http://127.0.0.1:9997 \
  --model-name bge-reranker-v2-m3 \
  --model-type rerank \
  --model-engine vllm
