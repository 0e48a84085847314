#!/bin/bash
export CUDA_VISIBLE_DEVICES=1,5
vllm serve /data/models/Qwen/Qwen3-Omni-30B-A3B-Instruct --omni --host 0.0.0.0 --port 10808
