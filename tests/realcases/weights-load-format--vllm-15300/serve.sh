#!/bin/sh
vllm serve OPEA/Mistral-Small-3.1-24B-Instruct-2503-int4-AutoRound-awq-sym \
  --port 11435 \
  --tokenizer-mode mistral \
  --config-format mistral \
  --load-format mistral
