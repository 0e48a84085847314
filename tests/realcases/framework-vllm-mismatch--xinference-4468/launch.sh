#!/bin/bash
# a local Xinference, then its vLLM engine for an embedding model
xinference-local --host 0.0.0.0 --port 9997 &
sleep 30
xinference launch --model-name Qwen3-Embedding-8B --model-type embedding --model-engine vllm
