#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --port=8080 \
  --model=meta-llama/Meta-Llama-3.1-8B-Instruct \
  --served-model-name=llama31 \
  --distributed-executor-backend=mp \
  --use-v2-block-manager \
  --enforce-eager \
  --speculative-model=[ngram] \
  --num-speculative-tokens=3 \
  --ngram-prompt-lookup-max=3
