#!/bin/sh
HF_HUB_OFFLINE=1 vllm serve "./GLM-4.1V-9B-Thinking" \
  --trust-remote-code \
  --dtype bfloat16 \
  --max-model-len 8192 \
  --tensor-parallel-size 8 \
  --media-io-kwargs '{"video": {"num_frames": -1}}'
