#!/bin/sh
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --enable-return-routed-experts
