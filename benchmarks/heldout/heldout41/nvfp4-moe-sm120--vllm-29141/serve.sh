#!/bin/bash
vllm serve nvidia/Qwen3-30B-A3B-FP4 --tensor-parallel-size 2
