#!/bin/bash
VLLM_LOGGING_LEVEL=DEBUG vllm serve /sharedFile/models/Qwen/Qwen3___6-35B-A3B --port 6008 \
    --tensor-parallel-size 8 --max-model-len 262144 --reasoning-parser qwen3 \
    --enable-auto-tool-choice --tool-call-parser qwen3_coder --enable-log-requests \
    --trust-remote-code --served-model-name JinQuan2604
