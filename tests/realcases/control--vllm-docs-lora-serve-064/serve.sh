#!/usr/bin/env bash
vllm serve meta-llama/Llama-2-7b-hf \
  --enable-lora \
  --lora-modules sql-lora=/adapters/llama-2-7b-sql-lora-test
