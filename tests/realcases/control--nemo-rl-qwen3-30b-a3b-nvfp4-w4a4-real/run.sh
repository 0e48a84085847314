#!/bin/bash
# the GB200 nightly suite's QAT run: GRPO on Qwen3-30B-A3B with real NVFP4 W4A4 expert rollouts
uv run examples/run_grpo.py --config examples/configs/recipes/llm/grpo-qwen3-30ba3b-4n4g-megatron-qa-nvfp4-w4a4-real.yaml grpo.max_num_steps=30
