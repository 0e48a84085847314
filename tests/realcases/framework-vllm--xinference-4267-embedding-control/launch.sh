#!/bin/bash
# the same pair, an embedding model: its vLLM engine is not built through VLLMModel.load
xinference-local --host 0.0.0.0 --port 9997 &
sleep 30
xinference launch --model-name bge-m3 --model-type embedding --model-engine vllm
