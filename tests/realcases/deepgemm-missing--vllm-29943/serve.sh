#!/bin/sh
vllm serve deepseek-ai/DeepSeek-V3.2 --tensor-parallel-size 8
