#!/bin/bash
# Following the vLLM LoRA docs page: base model plus a static LoRA module loaded at startup.
vllm serve meta-llama/Llama-3.2-3B-Instruct \
  --enable-lora \
  --lora-modules sql-lora=jeeejeee/llama32-3b-text2sql-spider
