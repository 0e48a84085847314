#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
  --port=5063 --host=0.0.0.0 \
  --model microsoft/Phi-3-vision-128k-instruct \
  --trust-remote-code \
  --image-input-type pixel_values \
  --image-token-id 32044 \
  --image-input-shape 1,3,1008,1344 \
  --image-feature-size 1921
