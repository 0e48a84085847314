#!/bin/bash
vllm serve Qwen/Qwen2.5-VL-3B-Instruct --gpu-memory-utilization 0.3
