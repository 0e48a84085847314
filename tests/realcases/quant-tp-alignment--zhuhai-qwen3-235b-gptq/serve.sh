#!/bin/sh
# 8x A100 40GB: the MoE checkpoint split over the eight cards by tensor parallelism only
vllm serve ./models/Qwen3-235B-A22B-GPTQ-Int4 --tensor-parallel-size 8
