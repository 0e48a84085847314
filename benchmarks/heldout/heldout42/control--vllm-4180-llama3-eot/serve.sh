#!/bin/bash
# Llama 3 8B Instruct behind the OpenAI-compatible server, the week the model came out
python -m vllm.entrypoints.openai.api_server \
  --model meta-llama/Meta-Llama-3-8B-Instruct &
sleep 90
curl -s http://localhost:8000/v1/chat/completions -H "Content-Type: application/json" -d '{
  "model": "meta-llama/Meta-Llama-3-8B-Instruct",
  "messages": [{"role": "system", "content": "You are a helpful assistant."},
               {"role": "user", "content": "Who are you?"}],
  "max_tokens": 256}'
