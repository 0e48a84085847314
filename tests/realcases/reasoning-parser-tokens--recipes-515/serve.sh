#!/bin/bash
# the Gemma 4 recipe's flags, pointed at a Gemma 3 checkpoint
vllm serve google/gemma-3-12b-it \
  --chat-template /root/tool_chat_template_gemma4.jinja \
  --enable-auto-tool-choice --tool-call-parser gemma4 --reasoning-parser gemma4 \
  --host 0.0.0.0 --max-model-len 8192 --tensor-parallel-size 2 \
  --gpu-memory-utilization 0.9 --kv-cache-dtype fp8 --enable-prefix-caching \
  --limit-mm-per-prompt '{"image": 1, "audio": 1}' --enable-chunked-prefill --async-scheduling
