#!/bin/bash
# XVERSE-65B downloaded next to the script, served with the OpenAI-compatible server
python -m vllm.entrypoints.openai.api_server --model XVERSE-65B --port 17861 --trust-remote-code
