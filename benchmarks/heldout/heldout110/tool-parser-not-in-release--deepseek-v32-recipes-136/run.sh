#!/bin/sh
# DeepSeek-V3.2 launch following the vLLM recipe, on the newest pip release of the day.
vllm serve deepseek-ai/DeepSeek-V3.2 \
    --tensor-parallel-size 8 \
    --enable-auto-tool-choice \
    --tool-call-parser deepseek_v32 \
    --reasoning-parser deepseek_v3
