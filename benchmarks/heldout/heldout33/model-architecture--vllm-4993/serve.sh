#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --model microsoft/Phi-3-small-128k-instruct \
  --trust-remote-code \
  --tensor-parallel-size 2
