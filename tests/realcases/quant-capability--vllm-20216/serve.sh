#!/bin/bash
# Serve a Qwen3-32B fine-tune that was AWQ-quantized locally with llm-compressor
# (asymmetric 4-bit weights, MSE observer), on two Turing cards (compute capability 7.5).
vllm serve ./models/Qwen3-32B-abliterated-awq-asym-mse \
  --tensor-parallel-size 2 \
  --max-model-len 8192
