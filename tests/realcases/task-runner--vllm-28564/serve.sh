#!/bin/sh
# gte-modernbert-base, downloaded with huggingface-cli into models/bert, served as an embedding model
vllm serve models/bert --host 0.0.0.0 --port 8003 --task embed --trust-remote-code --gpu-memory-utilization 0.3
