#!/bin/sh
vllm serve Qwen/Qwen3-8B --max-model-len 8192
