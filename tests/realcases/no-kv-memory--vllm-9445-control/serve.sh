#!/bin/bash
vllm serve meta-llama/Llama-3.2-11B-Vision-Instruct --max-model-len 1024 \
  --max-num-seqs 32 --enforce-eager
