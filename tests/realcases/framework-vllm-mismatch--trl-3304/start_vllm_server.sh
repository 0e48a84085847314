#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 trl vllm-serve --model Qwen/Qwen2.5-72B --tensor_parallel_size 8
