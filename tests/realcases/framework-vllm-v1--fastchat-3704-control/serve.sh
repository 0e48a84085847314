#!/bin/bash
# the V0 engine, whose AsyncLLMEngine keeps .engine (vLLM 0.8–0.10)
export VLLM_USE_V1=0
python3 -m fastchat.serve.controller &
python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5 &
python3 -m fastchat.serve.openai_api_server --host 0.0.0.0 --port 8000
