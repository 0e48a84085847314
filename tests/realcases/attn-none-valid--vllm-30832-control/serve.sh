#!/bin/bash
vllm serve deepseek-ai/DeepSeek-V3.2 \
   --tensor-parallel-size 8 \
   --tokenizer-mode deepseek_v32 \
   --tool-call-parser deepseek_v32 \
   --enable-auto-tool-choice \
   --reasoning-parser deepseek_v3
