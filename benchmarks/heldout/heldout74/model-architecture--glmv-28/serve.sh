#!/bin/sh
vllm serve ./data_ssd01/ai_workspace/GLM/GLM-4_1V-9B-Thinking/ \
  --host 0.0.0.0 --port 8001 \
  --served-model-name THUDM/GLM-4.1V-9B-Thinking \
  --limit-mm-per-prompt '{"image":32}' \
  --allowed-local-media-path /
