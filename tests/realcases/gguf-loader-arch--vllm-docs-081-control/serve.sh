#!/bin/bash
vllm serve ./tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf --tokenizer TinyLlama/TinyLlama-1.1B-Chat-v1.0 \
    --hf-config-path TinyLlama/TinyLlama-1.1B-Chat-v1.0
