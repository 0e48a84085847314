#!/bin/bash
# The command GPUStack 2.0.3 runs inside gpustack/runner:cuda12.8-vllm0.13.0 for the deployment,
# with the advanced (backend) parameter the user added in the UI.
vllm serve Qwen/Qwen3-8B \
    --max-model-len 8192 \
    --rope-scaling='{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}' \
    --host 0.0.0.0 \
    --port 40000 \
    --served-model-name qwen3-8b
