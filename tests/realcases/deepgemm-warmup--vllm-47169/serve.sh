#!/bin/bash
vllm serve Qwen/Qwen3.6-27B-FP8 --tensor-parallel-size 2
