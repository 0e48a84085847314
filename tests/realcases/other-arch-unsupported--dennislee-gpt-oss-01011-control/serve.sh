#!/bin/bash
vllm serve openai/gpt-oss-120b --tensor-parallel-size 4 --gpu-memory-utilization 0.8
