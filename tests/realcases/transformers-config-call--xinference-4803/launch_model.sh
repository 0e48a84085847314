#!/bin/sh
# the reporter's command line: Qwen3.5 35B (pytorch, unquantized) on the vLLM engine
xinference launch --model-name qwen3.5 --model-type LLM --model-engine vLLM --model-format pytorch \
  --size-in-billions 35 --quantization none
