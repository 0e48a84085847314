#!/bin/bash
# Qwen3-Next-80B-A3B-Instruct over eight H20 cards, tensor parallel 8, no pipeline parallelism
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct \
    --tensor-parallel-size 8 \
    --pipeline-parallel-size 1 \
    --compilation-config '{"cudagraph_mode": "PIECEWISE"}'
