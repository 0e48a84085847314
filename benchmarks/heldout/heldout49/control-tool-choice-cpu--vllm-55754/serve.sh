#!/bin/sh
# tiny model on the CPU image, a tool parser configured but automatic tool choice not enabled
vllm serve HuggingFaceTB/SmolLM2-135M-Instruct \
  --served-model-name smollm2-e2e --tool-call-parser hermes \
  --dtype float32 --enforce-eager --max-model-len 512
