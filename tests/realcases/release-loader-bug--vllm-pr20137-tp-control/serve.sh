#!/bin/sh
# the same hybrid class split by tensor parallelism instead (two GPUs, no pipeline stages)
vllm serve ibm-granite/granite-4.0-tiny-preview --tensor-parallel-size 2
