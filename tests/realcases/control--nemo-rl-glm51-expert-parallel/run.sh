#!/bin/bash
# the release test suite's GLM-5.1 GRPO run (64 nodes of 8 H100s)
uv run examples/run_grpo.py --config examples/configs/recipes/llm/grpo-glm5.1-64n8g-megatron.yaml grpo.max_num_steps=20
