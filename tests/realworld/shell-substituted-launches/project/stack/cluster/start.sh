#!/usr/bin/env bash
# start a two-node vLLM cluster: the head rank runs here
set -euo pipefail
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$REPO_DIR/scripts/lib.sh"
load_conf "$1"

build_docker_cmd() {
  local rank="$1"
  local -a cmd=(docker run -d --name "pulsar-rank$rank" --network host --ipc host --gpus all)
  cmd+=("$IMAGE" --model "$MODEL" --gpu-memory-utilization "$GPU_MEM_UTIL" --nnodes 2 --node-rank "$rank")
  _DOCKER_CMD=("${cmd[@]}")
}

build_docker_cmd 0
HEAD_RUN=("${_DOCKER_CMD[@]}")
if ! head_id=$("${HEAD_RUN[@]}"); then
  echo "rank 0 failed" >&2
  exit 1
fi
echo "head $head_id"
