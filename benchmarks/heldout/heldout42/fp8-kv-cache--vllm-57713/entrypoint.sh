#!/bin/bash
# Model server container of an 8xH100 pod: GLM-5.3-Flash with EP, MTP drafting and an FP8 KV cache
MODEL_PATH=${MODEL_PATH:-zai-org/GLM-5.3-Flash}
MODEL=${MODEL:-glm-5.3-flash}
MAX_NUM_SEQS=${MAX_NUM_SEQS:-256}
MAX_NUM_BATCHED_TOKENS=${MAX_NUM_BATCHED_TOKENS:-8192}
MAX_CG_SIZE=${MAX_CG_SIZE:-512}
LONG_PREFILL_TOKEN_THRESHOLD=${LONG_PREFILL_TOKEN_THRESHOLD:-2048}
SPEC_TOKENS=${SPEC_TOKENS:-3}

exec vllm serve "${MODEL_PATH}" \
  --served-model-name "${MODEL}" \
  --kv-cache-dtype fp8 \
  --disable-access-log-for-endpoints=/health,/metrics \
  --max-num-seqs "${MAX_NUM_SEQS}" \
  --max-num-batched-tokens "${MAX_NUM_BATCHED_TOKENS}" \
  --max-cudagraph-capture-size "${MAX_CG_SIZE}" \
  --long-prefill-token-threshold "${LONG_PREFILL_TOKEN_THRESHOLD}" \
  --tensor-parallel-size 8 \
  --enable-expert-parallel \
  --enable-ep-weight-filter \
  --speculative-config "{\"method\":\"mtp\",\"num_speculative_tokens\":${SPEC_TOKENS}}" \
  --no-enable-flashinfer-autotune \
  --reasoning-parser glm45 \
  --tool-call-parser glm47 \
  --enable-auto-tool-choice \
  --enable-prompt-tokens-details
