#!/bin/bash
# the nightly suite's QAT run: DAPO on Qwen3-8B-Base with real NVFP4 W4A16 rollouts (two nodes of 8 H100s)
uv run examples/run_grpo.py --config examples/configs/recipes/llm/grpo-qwen3-8b-base-dapo-2n8g-long-megatron-qa-nvfp4-w4a16.yaml grpo.max_num_steps=10
