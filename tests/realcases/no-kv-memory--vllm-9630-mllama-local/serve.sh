#!/bin/bash
# Llama 3.2 11B Vision (base) from a local folder on one 96 GB H100, the context cut to 32 tokens.
vllm serve /models/LLM/Llama-3.2-11B-Vision --disable-log-requests --gpu-memory-utilization 0.9 --max-model-len 32
