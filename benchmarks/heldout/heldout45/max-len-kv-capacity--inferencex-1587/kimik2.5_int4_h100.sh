#!/usr/bin/env bash
# agentic replay arm, offloading: none (the failing one)
MODEL=moonshotai/Kimi-K2.5
TP=8
CONC=20
PORT=8888
export PYTHONNOUSERSITE=1
export VLLM_USE_FLASHINFER_MOE_INT4=1

vllm serve $MODEL \
--host 0.0.0.0 \
--port $PORT \
--gpu-memory-utilization 0.95 \
--tensor-parallel-size $TP \
--max-num-seqs $CONC \
--reasoning-parser kimi_k2 \
--tool-call-parser kimi_k2 \
--compilation_config.pass_config.fuse_allreduce_rms true \
--kv-cache-dtype fp8 \
--trust-remote-code
