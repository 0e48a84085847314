#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model ./MiniMax-M1-80k --tensor-parallel-size 8 --trust-remote-code \
    --quantization experts_int8 --max_model_len 1024 --dtype bfloat16
