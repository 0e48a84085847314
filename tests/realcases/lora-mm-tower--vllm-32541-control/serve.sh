#!/bin/bash
vllm serve Qwen/Qwen3-VL-8B-Instruct --enable-lora --lora-modules mine=/data/qwen3vl-lora --max-lora-rank 64
