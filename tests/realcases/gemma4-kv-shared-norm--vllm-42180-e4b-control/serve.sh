#!/bin/bash
# Google's own gemma-4-E4B-it (key norms in every layer) with its MTP assistant as the draft
CUDA_VISIBLE_DEVICES=0 vllm serve google/gemma-4-E4B-it --host 0.0.0.0 --port 8002 --tensor-parallel-size 1 \
  --trust-remote-code --max-model-len 8192 \
  --speculative-config '{"method":"mtp","model":"gg-hf-am/gemma-4-E4B-it-assistant","num_speculative_tokens":4}'
