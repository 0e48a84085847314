#!/bin/bash
# FastChat controller, its vLLM worker and the OpenAI-compatible API in front of them
python3 -m fastchat.serve.controller &
python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5 &
python3 -m fastchat.serve.openai_api_server --host 0.0.0.0 --port 8000
