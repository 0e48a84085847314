#!/bin/sh
# Qwen3-VL-30B-A3B-Instruct from a local folder on one A800, default context length
vllm serve ./models/Qwen3-VL-30B-A3B-Instruct --port 8000
