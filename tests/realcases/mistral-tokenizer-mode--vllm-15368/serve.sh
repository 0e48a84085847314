#!/bin/bash
# a small Qwen checkpoint started with Mistral's tokenizer mode
vllm serve Qwen/Qwen2.5-0.5B-Instruct --tokenizer-mode mistral
