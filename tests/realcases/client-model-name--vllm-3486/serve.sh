#!/bin/bash
# the server names the model by its local path (no --served-model-name)
python -m vllm.entrypoints.openai.api_server \
  --model /root/autodl-tmp/models/Qwen1.5-14B-Chat-GPTQ-Int8 \
  --max-model-len 2000 \
  --trust-remote-code
