#!/bin/bash
python3 server_vllm.py --model "meetkai/functionary-medium-v2.4" --max-model-len 8192 \
    --tensor-parallel-size 2 --enable-grammar-sampling
