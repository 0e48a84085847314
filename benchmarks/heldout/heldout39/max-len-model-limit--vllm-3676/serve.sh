#!/bin/bash
export CUDA_VISIBLE_DEVICES="0,1"
python -m vllm.entrypoints.openai.api_server --port=5005 --host=0.0.0.0 \
  --model CohereForAI/c4ai-command-r-v01 --seed 1234 --tensor-parallel-size=2 \
  --max-num-batched-tokens 131072 --max-model-len 131072
