#!/bin/sh
vllm serve THUDM/GLM-4.1V-9B-Thinking \
  --limit-mm-per-prompt '{"image":32}' \
  --allowed-local-media-path /
