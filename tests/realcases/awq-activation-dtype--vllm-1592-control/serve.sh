#!/usr/bin/env bash
# the OpenAI-compatible server with the AWQ kernel's dtype given
python -m vllm.entrypoints.openai.api_server --model TheBloke/openchat_3.5-AWQ --quantization awq \
  --host 0.0.0.0 --port 8686 --dtype half --served-model-name openchat/openchat_3.5
