#!/bin/sh
CUDA_VISIBLE_DEVICES=0,1,2 trl vllm-serve --model Qwen/Qwen2-0.5B --tensor-parallel-size 2 --data-parallel-size 1 --port=8000
