#!/bin/bash
export CUDA_VISIBLE_DEVICES=6
python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m
