#!/bin/bash
vllm serve Qwen/Qwen3-VL-8B-Instruct -language-model-only --max-model-len 32768 --port 8000
