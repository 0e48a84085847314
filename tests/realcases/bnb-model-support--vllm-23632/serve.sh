#!/bin/bash
vllm serve unsloth/gpt-oss-20b-unsloth-bnb-4bit --served-model-name gpt-oss-20b \
    --max-model-len 16384 --port 8000
