#!/bin/bash
# GLM-4.7-Flash on one H100, MTP speculative decoding, GLM tool calls
vllm serve zai-org/GLM-4.7-Flash \
  --max-model-len 90000 \
  --speculative-config.method mtp --speculative-config.num_speculative_tokens 1 \
  --tool-call-parser glm47 --reasoning-parser glm45 --enable-auto-tool-choice
