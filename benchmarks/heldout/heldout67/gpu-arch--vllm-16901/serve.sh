#!/bin/sh
# Ubuntu 22.04, Python 3.10, vLLM installed with pip from PyPI
vllm serve Qwen/Qwen2.5-7B-Instruct --host 0.0.0.0 --port 8000
