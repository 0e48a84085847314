#!/bin/bash
# the maintainer's answer: keep the API server running in a detached tmux session
tmux new -d -s llamafactory 'CUDA_VISIBLE_DEVICES=0,1 API_PORT=8000 llamafactory-cli api examples/inference/llama3_vllm.yaml'
