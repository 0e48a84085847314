#!/bin/bash
# the release test suite's DAPO run on Qwen2.5-Math-7B (16 nodes of 8 H100s)
uv run examples/run_grpo.py --config examples/configs/recipes/llm/dapo-qwen2.5-7b.v2.yaml grpo.max_num_steps=20
