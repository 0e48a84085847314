#!/bin/sh
python3 -m vllm.entrypoints.openai.api_server \
  --model MiniCPM-V_2_6_awq_int4/ \
  --trust-remote-code
