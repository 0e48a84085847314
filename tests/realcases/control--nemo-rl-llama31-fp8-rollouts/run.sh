#!/bin/bash
# the nightly suite's FP8-rollout GRPO run on Llama-3.1-8B-Instruct (one node of 8 H100s)
uv run examples/run_grpo.py --config examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml grpo.max_num_steps=20
