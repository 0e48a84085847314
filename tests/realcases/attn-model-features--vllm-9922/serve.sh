#!/bin/bash
vllm serve google/gemma-2-2b-it --dtype half --max-model-len 4096 --gpu-memory-utilization 0.9 --max-num-seqs 32
