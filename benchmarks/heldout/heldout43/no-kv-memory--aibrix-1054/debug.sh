#!/bin/sh
# what the reporter ran inside the container while debugging
vllm serve deepseek-ai/DeepSeek-R1-Distill-Llama-8B --dtype=half --max-model-len "12288"
