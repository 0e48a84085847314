#!/bin/sh
# Forcing the V1 engine with its Triton attention backend on a Tesla T4.
VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1 VLLM_LOGGING_LEVEL=DEBUG VLLM_USE_V1=1 \
  vllm serve facebook/opt-125m
