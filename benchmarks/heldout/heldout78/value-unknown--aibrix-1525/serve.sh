#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model /models/deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B \
  --served-model-name deepseek-r1-distill-qwen-1-5b \
  --kv-transfer-config '{"kv_connector":"AIBrixOffloadingConnectorV1Type1", "kv_role":"kv_both"}'
