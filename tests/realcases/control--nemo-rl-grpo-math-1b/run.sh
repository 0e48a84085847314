#!/bin/bash
# the quick start: GRPO on math with the default config (examples/configs/grpo_math_1B.yaml)
uv run python examples/run_grpo_math.py
