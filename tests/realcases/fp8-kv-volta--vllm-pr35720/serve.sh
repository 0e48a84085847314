#!/bin/bash
vllm serve --model unsloth/Meta-Llama-3.1-8B-Instruct --max-model-len 4096 --kv-cache-dtype fp8
