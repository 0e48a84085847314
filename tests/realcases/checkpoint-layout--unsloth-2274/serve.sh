#!/bin/sh
# serve the 4-bit merge of a Gemma 3 ORPO fine-tune saved from Unsloth
vllm serve ./my_orpo_model \
  --port 9090 \
  --quantization bitsandbytes \
  --load-format bitsandbytes \
  --max-model-len 4096
