#!/bin/bash
# reduced: the engine requirements file is chosen by engine and release, its `# engine:` line installed
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
VLLM_VERSION="${VLLM_VERSION:-0.23.0}"
req="$SCRIPT_DIR/agentic/vllm_${VLLM_VERSION}_cu12.txt"
uv pip install -r "$req"
engine_req=$(mktemp)
sed -n 's/^# engine: //p' "$req" > "$engine_req"
uv pip install --no-deps -r "$engine_req"
