#!/bin/bash
CUDA_VISIABLE_DEVICES=0,1,2,3 vllm serve ./model/Qwen3-reranker-8B \
  --host 0.0.0.0 --port 8000 \
  --task score \
  --tensor-parallel-size 4 \
  --trust-remote-code \
  --hf_overrides '{"architectures": ["Qwen3ForSequenceClassification"], "classifier_from_token": ["no", "yes"], "is_original_qwen3_reranker": true}'
