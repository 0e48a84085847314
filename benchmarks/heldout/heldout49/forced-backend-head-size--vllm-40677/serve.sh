#!/bin/sh
# Gemma 4 on one RTX PRO 6000 Blackwell (SM120), attention backend forced to FlashInfer
vllm serve google/gemma-4-E2B-it \
  --attention-backend FLASHINFER
