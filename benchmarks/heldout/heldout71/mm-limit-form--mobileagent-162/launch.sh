#!/bin/sh
# launch.sh PORT MODEL_DIR (the serve script recommended for GUI-Owl, run by the evaluation harness)
PORT=${1:-7880}
MODEL=${2:-opensource_models/GUI-Owl}
vllm serve "$MODEL" \
  --port "$PORT" \
  --limit-mm-per-prompt image=5
