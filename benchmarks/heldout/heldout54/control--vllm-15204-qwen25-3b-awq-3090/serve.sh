#!/bin/sh
# AWQ Qwen2.5-3B with the defaults on a single RTX 3090
vllm serve Qwen/Qwen2.5-3B-Instruct-AWQ
