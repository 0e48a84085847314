#!/bin/bash
python3 -m fastchat.serve.controller &
python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5 &
python3 -m fastchat.serve.openai_api_server --host localhost --port 8000
