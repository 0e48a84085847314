#!/bin/sh
# command GPUStack 0.5.1 runs for the model instance (model path mounted from the host)
vllm serve ./models/Qwen2.5-VL-3B-Instruct \
    --trust-remote-code \
    --enable-auto-tool-choice \
    --tool-call-parser hermes \
    --host 0.0.0.0 \
    --port 40380
