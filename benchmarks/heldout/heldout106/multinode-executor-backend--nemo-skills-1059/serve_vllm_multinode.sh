#!/bin/bash
# Head node of a two-node Ray cluster (8 GPUs each); workers joined with `ray start --address`.
# The wrapper passes num_gpus x num_nodes = 8 x 2 as the TP size.
python3 -m vllm.entrypoints.openai.api_server \
  --model="deepseek-ai/DeepSeek-R1" \
  --served-model-name="deepseek-ai/DeepSeek-R1" \
  --trust-remote-code \
  --host="0.0.0.0" \
  --port=5000 \
  --tensor-parallel-size=16
