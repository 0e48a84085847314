#!/bin/bash
# OpenAI-style API on LLaMA-Factory's vLLM engine
CUDA_VISIBLE_DEVICES=0 API_PORT=8000 llamafactory-cli api examples/qwen2_vllm.yaml
