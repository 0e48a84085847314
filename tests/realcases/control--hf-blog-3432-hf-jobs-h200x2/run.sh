#!/bin/bash
# A vLLM server on Hugging Face Jobs: two H200s, the model sharded across both
hf jobs run --flavor h200x2 --expose 8000 --timeout 2h \
  vllm/vllm-openai:v0.19.0 \
  vllm serve Qwen/Qwen3-30B-A3B \
  --host 0.0.0.0 --port 8000 --tensor-parallel-size 2 \
  --max-model-len 32768 --max-num-seqs 256
