#!/bin/bash
# Xinference's quickstart: a local server, then the registry's qwen2.5-instruct 0.5B on the vLLM engine
xinference-local --host 0.0.0.0 --port 9997 &
sleep 30
xinference launch --model-engine vllm -n qwen2.5-instruct -s 0_5 -f pytorch
