#!/usr/bin/env bash
# controller, then the vLLM worker for Qwen-7B-Chat, then the OpenAI-compatible API in front of them
python3 -m fastchat.serve.controller --host 0.0.0.0 &
sleep 5
python3 -m fastchat.serve.vllm_worker --model-path Qwen/Qwen-7B-Chat --model-names qwen-7b-chat --controller-address http://localhost:21001 &
sleep 60
python3 -m fastchat.serve.openai_api_server --host 0.0.0.0 --port 8000
