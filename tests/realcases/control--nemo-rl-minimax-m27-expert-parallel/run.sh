#!/bin/bash
# the release test suite's MiniMax-M2.7 DAPO run (8 nodes of 8 H100s)
uv run examples/run_grpo.py --config examples/configs/recipes/llm/grpo-minimax-m27-dapo-8n8g-automodel.yaml grpo.max_num_steps=20
