#!/bin/bash
# What the catalog entry amounts to on one 4-GPU node: vLLM with only tensor parallelism set.
# An evaluation service then sends OpenAI chat requests that carry `tools` (tool_choice auto).
vllm serve google/gemma-4-26B-A4B-it \
  --served-model-name google/gemma-4-26B-A4B-it \
  --host 0.0.0.0 \
  --tensor-parallel-size 4
