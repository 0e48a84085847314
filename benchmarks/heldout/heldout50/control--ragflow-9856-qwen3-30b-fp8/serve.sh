#!/bin/bash
# vLLM server that RAGFlow is then pointed at as an OpenAI-compatible provider.
vllm serve /home/test/hfd/Qwen3-30B-A3B-Thinking-2507-FP8 \
    --tensor-parallel-size 2 \
    --served-model-name qwen3-30b
