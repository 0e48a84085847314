#!/usr/bin/env bash
# The original Qwen3-Reranker-4B served as a score model on two GPUs, through the OpenAI server module.
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen3-Reranker-4B \
  --task score \
  --tensor_parallel_size 2 \
  --hf_overrides '{"architectures":["Qwen3ForSequenceClassification"],"classifier_from_token":["no","yes"],"is_original_qwen3_reranker":true}'
