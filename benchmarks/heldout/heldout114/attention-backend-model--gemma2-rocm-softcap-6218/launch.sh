#!/bin/bash
# AMD Instinct node, ROCm build of vLLM 0.5.1; FlashInfer asked for as the Gemma-2 error says
export VLLM_ATTENTION_BACKEND=FLASHINFER
python -m vllm.entrypoints.openai.api_server \
  --model google/gemma-2-9b-it \
  --tensor-parallel-size 2
