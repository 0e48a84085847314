#!/bin/bash
# a plain serve with the smallest block size the command line lists besides 1
vllm serve Qwen/Qwen2.5-1.5B-Instruct --max-model-len 8192 --block-size 8
