#!/bin/sh
# all eight cards of the node are visible; LLaMA-Factory sets vLLM's tensor_parallel_size to the GPU count
API_PORT=8000 llamafactory-cli api \
  --model_name_or_path ./models/qwen2-57b-a14b-instruct-freeze-sft \
  --template qwen \
  --infer_backend vllm \
  --vllm_enforce_eager true
