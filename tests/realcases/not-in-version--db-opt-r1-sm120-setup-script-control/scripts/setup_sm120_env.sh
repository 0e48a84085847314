#!/usr/bin/env bash
# a separate conda environment for one Blackwell (sm_120) box
set -euo pipefail
ENV_PREFIX="${ENV_PREFIX:-/root/envs/vllm-sm120}"
VLLM_INDEX_URL="${VLLM_INDEX_URL:-https://wheels.vllm.ai/cu130}"
VLLM_VERSION="${VLLM_VERSION:-0.20.0}"
conda create -p "$ENV_PREFIX" python=3.12 -y
conda activate "$ENV_PREFIX"
python -m pip install --no-cache-dir \
    "vllm==$VLLM_VERSION" \
    --index-url "$VLLM_INDEX_URL" \
    --extra-index-url https://pypi.org/simple
