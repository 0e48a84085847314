#!/bin/bash
python3 -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8000 \
  --served-model-name qwen1.5-14b-chat-int4 \
  --model Qwen/Qwen1.5-14B-Chat-GPTQ-Int4 \
  --trust-remote-code \
  --tokenizer-mode auto \
  --max-num-batched-tokens 32768 \
  --tensor-parallel-size 2
