#!/bin/bash
# installs the training stack for one of two verl releases into an existing venv
set -euo pipefail
VERL_VERSION="$1"
CUDA_VARIANT="$2"
PYTHON_BIN="${3:-.venv}/bin/python"

if [ "$VERL_VERSION" = "0.7.1" ]; then
    VLLM_VERSION="0.12.0"
else
    VLLM_VERSION="0.20.2"
fi

uv pip install --python "$PYTHON_BIN" \
    "vllm==$VLLM_VERSION" \
    --torch-backend="$CUDA_VARIANT" \
    --extra-index-url "https://wheels.vllm.ai/$VLLM_VERSION/$CUDA_VARIANT" \
    --index-strategy unsafe-best-match
uv pip install --python "$PYTHON_BIN" "verl==$VERL_VERSION"
