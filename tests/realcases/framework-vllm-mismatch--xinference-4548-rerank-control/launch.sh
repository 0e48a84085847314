#!/bin/bash
# a local Xinference, then a rerank model on its vllm engine
xinference-local -H 0.0.0.0 &
sleep 30
xinference launch --model-name bge-reranker-v2-m3 --model-type rerank --model-engine vllm
