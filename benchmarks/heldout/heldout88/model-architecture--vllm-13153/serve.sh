#!/bin/sh
vllm serve Qwen/Qwen2.5-VL-72B-Instruct --tensor-parallel-size 4
