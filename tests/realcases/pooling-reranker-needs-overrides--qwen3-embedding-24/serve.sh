#!/bin/sh
VLLM_USE_V1=0 vllm serve ./Qwen3-Reranker-8B --task score --max-model-len 32768 --port 10004
