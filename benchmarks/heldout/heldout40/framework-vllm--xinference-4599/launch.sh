#!/bin/bash
xinference launch --model-name Qwen3-Embedding-8B --model-type embedding \
    --model-engine vllm -e http://0.0.0.0:9997
