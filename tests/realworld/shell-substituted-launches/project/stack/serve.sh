#!/usr/bin/env bash
# serve one model profile on this node with vLLM's image
set -euo pipefail
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$REPO_DIR/scripts/lib.sh"
DETACH=""
[ "${2:-}" = "-d" ] && DETACH="-d"
load_conf "$1"

CMD=(docker run --name "pulsar-$1" ${DETACH:+$DETACH}
  --gpus all
  --ipc=host
  -p 8000:8000
)
for e in ${CONTAINER_ENV[@]+"${CONTAINER_ENV[@]}"}; do CMD+=(-e "$e"); done
CMD+=(
  "$IMAGE"
  --model "$MODEL"
  --port 8000
  --gpu-memory-utilization "$GPU_MEM_UTIL"
)
CMD+=(${ENGINE_ARGS[@]+"${ENGINE_ARGS[@]}"})
exec "${CMD[@]}"
