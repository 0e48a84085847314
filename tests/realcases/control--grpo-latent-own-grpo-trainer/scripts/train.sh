#!/bin/bash
cd "$(dirname "$0")/.."
python run_rl_train.py --model_name Qwen/Qwen3-4B --use_vllm --epochs 3
