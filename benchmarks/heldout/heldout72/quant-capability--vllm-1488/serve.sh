#!/bin/sh
# An AWQ 4-bit checkpoint served on a single Tesla V100.
python -m vllm.entrypoints.openai.api_server \
  --model TheBloke/Llama-2-7B-Chat-AWQ \
  --quantization awq \
  --dtype half
