#!/bin/bash
# node 1 (head); node 2 runs: ray start --address=<head-ip>:6379
ray start --head --port=6379
vllm serve meta-llama/Llama-3.2-90B-Vision-Instruct \
  --tensor-parallel-size 1 \
  --pipeline-parallel-size 4 \
  --distributed-executor-backend ray
