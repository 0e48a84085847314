#!/bin/sh
vllm serve ./models/GLM-4.5V-FP8 \
  --tensor-parallel-size 4 \
  --tool-call-parser glm45 \
  --reasoning-parser glm45 \
  --enable-auto-tool-choice \
  --allowed-local-media-path / \
  --media-io-kwargs '{"video": {"num_frames": -1}}'
