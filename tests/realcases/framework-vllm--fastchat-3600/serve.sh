#!/bin/bash
# FastChat's controller, its vLLM worker and the OpenAI-compatible API in front of them
python3 -m fastchat.serve.controller --host 0.0.0.0 &
python3 -m fastchat.serve.vllm_worker --model-path Qwen/Qwen2-7B-Instruct --host 0.0.0.0 &
python3 -m fastchat.serve.openai_api_server --host 0.0.0.0 --port 8000
