#!/bin/bash
export VLLM_USE_V1=1
vllm serve Qwen/Qwen2.5-7B-Instruct --dtype half --max-model-len 8192
