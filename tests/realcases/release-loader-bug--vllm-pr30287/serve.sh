#!/bin/sh
# a compressed-tensors FP8 checkpoint through the Transformers modeling backend
vllm serve RedHatAI/Qwen3-0.6B-FP8-BLOCK --model-impl transformers
