#!/bin/bash
# Serving the downloaded HunyuanImage-3.0 checkpoint with vLLM, as tried on the repo's vLLM-inference PR.
vllm serve ./HunyuanImage-3 \
  --trust-remote-code \
  --tensor-parallel-size 4
