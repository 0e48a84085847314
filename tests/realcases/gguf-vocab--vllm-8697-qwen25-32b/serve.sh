#!/bin/bash
# Qwen's own q3_k_m GGUF of Qwen2.5-32B-Instruct, read straight from the file (config and tokenizer from the GGUF)
python -m vllm.entrypoints.openai.api_server --model /data/models/Qwen2.5-32B-Instruct-GGUF-q3_k_m/qwen2.5-32b-instruct-q3_k_m.gguf \
  --dtype float16 --tensor-parallel-size 1 --trust-remote-code --gpu-memory-utilization 0.8 --port 8000 \
  --max_model_len 10000 --enforce-eager --quantization gguf
