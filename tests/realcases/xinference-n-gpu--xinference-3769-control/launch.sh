#!/bin/bash
xinference launch --model-engine vLLM -n qwen3 -s 32 -f fp8 --replica 1 --n-worker 1 --max_model_len 4096
