#!/bin/sh
# the 2B embedding upload, which ties its output head to the embeddings, served the same way
vllm serve Qwen/Qwen3-VL-Embedding-2B --host 0.0.0.0 --port 8000
