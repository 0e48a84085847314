#!/bin/bash
vllm serve meta-llama/Llama-2-7b-chat-hf --kv-cache-dtype fp8 --max-model-len 4096
