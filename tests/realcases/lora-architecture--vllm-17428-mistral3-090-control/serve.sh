#!/bin/bash
vllm serve mistralai/Mistral-Small-3.1-24B-Instruct-2503 --max-model-len 10000 \
  --enable-lora --lora-modules lora=./Mistral_lora_model_250412
