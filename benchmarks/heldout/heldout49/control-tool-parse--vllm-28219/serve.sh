#!/bin/sh
# DeepSeek-R1 distill (Llama 8B) with automatic tool choice through the llama3_json parser
vllm serve deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --port 2080 \
  --chat-template /workspace/vllm/examples/tool_chat_template_llama3.1_json.jinja \
  --enable-auto-tool-choice \
  --tool-call-parser llama3_json \
  --dtype bfloat16 \
  --max-model-len 33024 \
  --served-model-name deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --block-size 128 \
  --gpu-memory-utilization 0.98 \
  --max-num-seqs 288 \
  --disable-log-requests
