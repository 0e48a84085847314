#!/usr/bin/env bash
# Start the dots.ocr OpenAI server from the project's image (no GPU flags given to docker).
docker run -p 8000:8000 rednotehilab/dots.ocr:vllm-openai-v0.9.1
