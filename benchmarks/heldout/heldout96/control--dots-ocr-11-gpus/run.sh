#!/usr/bin/env bash
docker run --gpus all --ipc=host -p 8000:8000 rednotehilab/dots.ocr:vllm-openai-v0.9.1
