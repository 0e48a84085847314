#!/bin/bash
# Llama 4 Scout (BF16) across one 8-GPU node at the context its config.json declares
vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct \
    --tensor-parallel-size 8
