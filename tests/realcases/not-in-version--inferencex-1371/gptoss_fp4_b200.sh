#!/usr/bin/env bash
# the single-node gpt-oss FP4 benchmark on B200, with the values the CI matrix passes in
MODEL=${MODEL:-openai/gpt-oss-120b}
TP=${TP:-1}
ISL=${ISL:-1024}
OSL=${OSL:-1024}
CALCULATED_MAX_MODEL_LEN=$((ISL + OSL + 20))

cat > config.yaml << EOF2
kv-cache-dtype: fp8
async-scheduling: true
no-enable-prefix-caching: true
max-num-batched-tokens: 8192
max-model-len: $CALCULATED_MAX_MODEL_LEN
EOF2

export VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1
PORT=${PORT:-8888}

vllm serve $MODEL --host 0.0.0.0 --port $PORT \
  --config config.yaml \
  --gpu-memory-utilization 0.9 \
  --tensor-parallel-size $TP \
  --max-num-seqs 512 \
  --disable-log-requests > server.log 2>&1 &
