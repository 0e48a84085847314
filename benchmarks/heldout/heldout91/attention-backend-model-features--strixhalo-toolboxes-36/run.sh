#!/bin/sh
# inside the Strix Halo vLLM toolbox
vllm serve openai/gpt-oss-120b \
  --trust-remote-code \
  --max-model-len 131072 \
  --attention-backend ROCM_ATTN \
  --gpu-memory-utilization 0.95 \
  --max-num-seqs 1 \
  --host 0.0.0.0
