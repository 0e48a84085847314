#!/bin/sh
python -m vllm.entrypoints.api_server \
  --model ./outputs/out/qlora-llama3-70b/merged/ \
  --tensor-parallel-size 4
