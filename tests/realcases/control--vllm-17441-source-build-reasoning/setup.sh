#!/bin/bash
# vLLM from main: the qwen3 reasoning parser is newer than the last release
git clone https://github.com/vllm-project/vllm.git
cd vllm
pip install -e .
cd ..
vllm serve Qwen/Qwen3-8B --enable-reasoning --reasoning-parser qwen3
