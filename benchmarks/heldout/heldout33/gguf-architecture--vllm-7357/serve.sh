#!/bin/sh
python -m vllm.entrypoints.openai.api_server --model ./gemma-2-27b-it-Q6_K.gguf
