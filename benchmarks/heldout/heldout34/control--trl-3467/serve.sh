#!/bin/bash
CUDA_VISIBLE_DEVICES=0 trl vllm-serve --max_model_len 512 --model "Qwen/Qwen3-1.7B"
