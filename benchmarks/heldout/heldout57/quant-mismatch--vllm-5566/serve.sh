#!/bin/sh
python -m vllm.entrypoints.openai.api_server \
  --disable-log-requests \
  --model TheBloke/Llama-2-7B-Chat-GPTQ \
  --quantization gptq_marlin \
  --seed 0
