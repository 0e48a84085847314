#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model /data/model/DeepSeek-V3-0324 \
  --tensor-parallel-size 8 --enable-prefix-caching --enable-chunked-prefill \
  --trust-remote-code --quantization fp8 \
  --enable-auto-tool-choice --tool-call-parser deepseek_v3 \
  --chat-template tool_chat_template_deepseekv3.jinja
