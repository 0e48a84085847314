#!/bin/bash
python -m vllm.entrypoints.api_server --model meta-llama/Llama-2-13b-chat-hf --tensor-parallel-size 3
