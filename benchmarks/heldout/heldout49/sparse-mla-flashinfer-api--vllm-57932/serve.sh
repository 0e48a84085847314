#!/bin/sh
# GLM-5.3-Flash (sparse MLA) on four RTX PRO 6000 Blackwell Max-Q cards, FP8 KV cache, MTP drafting
vllm serve zai-org/GLM-5.3-Flash \
  --tensor-parallel-size 4 \
  --kv-cache-dtype fp8 \
  --speculative-config '{"method":"mtp","num_speculative_tokens":5}' \
  --tool-call-parser glm47 \
  --reasoning-parser glm47 \
  --enable-auto-tool-choice \
  --served-model-name zai-org/GLM-5.3-Flash
