#!/bin/bash
trl vllm-serve --model Qwen/Qwen2.5-3B-Instruct --data_parallel_size 4
