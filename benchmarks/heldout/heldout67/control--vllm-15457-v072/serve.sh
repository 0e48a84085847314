#!/bin/sh
vllm serve DeepSeek-R1-32B-FULL --port 11435 --tensor-parallel-size 4 --max-model-len 32768
