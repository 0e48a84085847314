#!/bin/bash
vllm serve Qwen/Qwen2.5-VL-7B-Instruct --max-model-len 8192
