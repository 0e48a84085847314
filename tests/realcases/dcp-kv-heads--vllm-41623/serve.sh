#!/bin/sh
vllm serve Qwen/Qwen3-235B-A22B-FP8 --tensor-parallel-size 4 --decode-context-parallel-size 4 --enforce-eager
