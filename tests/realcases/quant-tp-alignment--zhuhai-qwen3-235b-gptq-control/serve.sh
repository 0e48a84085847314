#!/bin/sh
# the same eight cards as four-way tensor parallelism in two pipeline stages
vllm serve ./models/Qwen3-235B-A22B-GPTQ-Int4 --tensor-parallel-size 4 --pipeline-parallel-size 2
