#!/bin/bash
# two models on the same GPU
export CUDA_VISIBLE_DEVICES=0
vllm serve Qwen/Qwen2.5-7B-Instruct --port 12346 &
sleep 60
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 12347
