#!/bin/sh
lm_eval --model vllm \
  --model_args pretrained=meta-llama/Llama-2-7b-chat-hf,add_bos_token=true \
  --tasks gsm8k --num_fewshot 5 --limit 250 --batch_size auto
