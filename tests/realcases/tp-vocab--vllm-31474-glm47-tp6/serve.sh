#!/bin/sh
# GLM-4.7 (FP8) over six H20 GPUs, as in the report
vllm serve zai-org/GLM-4.7-FP8 --tensor-parallel-size 6
