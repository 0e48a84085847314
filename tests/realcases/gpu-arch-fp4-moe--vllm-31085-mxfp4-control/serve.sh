#!/bin/bash
# gpt-oss-120b on one RTX PRO 6000 Blackwell; vLLM picks the MXFP4 MoE backend itself.
vllm serve openai/gpt-oss-120b --port 8000
