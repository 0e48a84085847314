#!/bin/bash
# api-for-open-llm reads .env and builds an AsyncLLMEngine when ENGINE=vllm
python server.py
