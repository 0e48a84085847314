#!/bin/bash
# fp8_e5m2 was tried after fp8: both stop in the same Triton kernel on Ampere
vllm serve Intel/Qwen3-Next-80B-A3B-Instruct-int4-mixed-AutoRound \
  --tensor-parallel-size 2 --max-model-len 65536 --dtype float16 \
  --kv-cache-dtype fp8_e5m2
