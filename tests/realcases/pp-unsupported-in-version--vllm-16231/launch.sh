#!/bin/bash
python3 -m vllm.entrypoints.openai.api_server --port 8080 \
    --model meta-llama/Llama-4-Maverick-17B-128E-Instruct \
    --tensor-parallel-size 8 --pipeline-parallel-size 2
