#!/bin/sh
# gpt-oss-20b with the ROCm custom paged-attention backend forced (Strix Halo vLLM toolbox)
exec vllm serve openai/gpt-oss-20b \
  --attention-backend ROCM_ATTN \
  --max-model-len 32768 \
  --max-num-seqs 4 \
  --port 8000
