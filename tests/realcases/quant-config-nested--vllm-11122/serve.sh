#!/bin/bash
# InternVL2 76B, AWQ upload from OpenGVLab, on two GPUs
vllm serve OpenGVLab/InternVL2-Llama3-76B-AWQ --trust-remote-code \
    --tensor-parallel-size 2 --max-model-len 8192
