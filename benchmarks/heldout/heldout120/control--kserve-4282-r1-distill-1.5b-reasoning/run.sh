#!/bin/bash
# KServe's huggingfaceserver hands the vLLM engine arguments through.
python -m huggingfaceserver \
  --model_id=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B \
  --model_name=llm \
  --enable-reasoning \
  --reasoning-parser deepseek_r1
