#!/bin/bash
vllm serve Intel/Qwen3-Next-80B-A3B-Instruct-int4-mixed-AutoRound \
  --tensor-parallel-size 2 --max-model-len 65536 --dtype float16
