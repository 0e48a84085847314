#!/bin/sh
# W4A8 on a GPTQ checkpoint through the Humming kernels, as vLLM's quantization docs describe
VLLM_HUMMING_INPUT_QUANT_CONFIG='{"dtype":"int8"}' vllm serve Qwen/Qwen3-30B-A3B-GPTQ-Int4 --quantization humming --max-model-len 8192
