#!/bin/bash
vllm serve ./models/gemma-4-31B-it-AWQ-4bit --kv-cache-dtype fp8_e5m2 --max-model-len 32768
