#!/usr/bin/env bash
# a decoder model with 128-wide heads in bfloat16, served with KV-cache blocks of 8 tokens
vllm serve meta-llama/Llama-3.1-8B-Instruct --block-size 8
