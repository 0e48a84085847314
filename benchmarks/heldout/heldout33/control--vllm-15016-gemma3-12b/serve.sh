#!/bin/sh
vllm serve google/gemma-3-12b-it --chat-template ./gemma3.jinja --gpu-memory-utilization 0.9 --max_model_len 8192
