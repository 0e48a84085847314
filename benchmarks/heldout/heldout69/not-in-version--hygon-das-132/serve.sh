#!/bin/bash
# Qwen3-4B IFB BW1000 1x vLLM 0.18 (cookbook command as the reporter ran it)
export VLLM_HCU_USE_CUSTOM_FLASH_ATTN=1
export VLLM_HCU_USE_PD_SPLIT=1

vllm serve Qwen/Qwen3-0.6B \
    -tp 1 \
    --trust-remote-code \
    --disable-log-requests \
    --dtype bfloat16 \
    --disable-cascade-attn \
    --max-num-batched-tokens 10240 \
    --kv-cache-dtype fp8_e5m2 \
    -cc '{"pass_config": {"fuse_act_quant": false}, "custom_ops": ["all"]}'
