#!/bin/sh
# the command GPUStack composes for the same catalog reranker placed on one GPU
vllm serve Qwen/Qwen3-Reranker-8B \
  --max-model-len 8192 \
  --hf_overrides='{"architectures": ["Qwen3ForSequenceClassification"],"classifier_from_token": ["no", "yes"],"is_original_qwen3_reranker": true}' \
  --task=score \
  --host 0.0.0.0 --port 40033 \
  --served-model-name qwen3-reranker-8b
