#!/bin/sh
vllm serve microsoft/phi-4 --tensor-parallel-size 4 --max-model-len 8192
