#!/bin/bash
# FastChat's vLLM worker for a local Qwen-7B-Chat checkout (custom modeling code in the repo);
# no --trust-remote-code flag on the worker.
python3 -m fastchat.serve.vllm_worker --model-path /home/user/MOD/Qwen/Qwen-7B-Chat
