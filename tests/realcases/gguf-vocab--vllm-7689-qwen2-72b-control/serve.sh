#!/bin/bash
# Qwen's official Q2_K GGUF of Qwen2-72B-Instruct (from ModelScope), config and tokenizer read from the file
vllm serve /models/qwen2-72b-instruct-gguf/qwen2-72b-instruct-q2_k.gguf --quantization gguf --max-model-len 4096
