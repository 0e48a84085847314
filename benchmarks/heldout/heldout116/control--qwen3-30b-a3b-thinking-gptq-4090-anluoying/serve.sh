#!/bin/bash
# Local copy of btbtyler09/Qwen3-30B-A3B-Thinking-2507-gptq-4bit mounted at /model.
python3 -m vllm.entrypoints.openai.api_server \
  --model /model \
  --host 0.0.0.0 --port 8000 \
  --api-key "${VLLM_API_KEY}" \
  --served-model-name mckj/Qwen3-30B-A3B-Thinking-2507 \
  --tensor-parallel-size 1 \
  --gpu-memory-utilization 0.96 \
  --max-model-len 6144 \
  --max-num-batched-tokens 8192 \
  --max-num-seqs 64 \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice \
  --tool-call-parser hermes
