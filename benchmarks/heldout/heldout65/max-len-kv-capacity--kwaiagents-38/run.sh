#!/bin/sh
# KwaiAgents' recommended deployment of its Qwen-7B agent model: FastChat controller + vLLM worker + OpenAI API server
python -m fastchat.serve.controller &
python -m fastchat.serve.vllm_worker --model-path KwaiKEG/kagentlms_qwen_7b_mat --trust-remote-code &
python -m fastchat.serve.openai_api_server --host localhost --port 8888
