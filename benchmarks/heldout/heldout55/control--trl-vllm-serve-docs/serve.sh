#!/bin/bash
# TRL's vLLM server for GRPO: two copies of the model, each sharded over two GPUs, on the first four GPUs
CUDA_VISIBLE_DEVICES=0,1,2,3 trl vllm-serve --model Qwen/Qwen2.5-7B --tensor-parallel-size 2 --data-parallel-size 2
