#!/bin/bash
vllm serve Qwen/Qwen3-30B-A3B-FP8 --tensor-parallel-size 4
