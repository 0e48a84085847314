#!/bin/sh
# A Qwen2.5-VL checkpoint quantized to W4A16 with llm-compressor (vision tower left unquantized).
vllm serve ./models/qwen2.5-vl-7b-instruct-w4a16 --port 8000
