#!/bin/bash
# vllm-ascend container on an Ascend NPU node, recent vLLM.
vllm serve /data/weights/Baichuan-7B \
  --port 8004 \
  --trust-remote-code \
  --enforce-eager \
  --served-model-name Baichuan-7B \
  --distributed-executor-backend mp \
  --block-size 128 \
  --disable-log-stats
