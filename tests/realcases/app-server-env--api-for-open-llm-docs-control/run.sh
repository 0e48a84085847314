#!/bin/bash
docker run -it -d --gpus all --ipc=host -p 7891:8000 --name=vllm-server \
    -v `pwd`:/workspace llm-api:vllm python api/server.py
