#!/bin/bash
uv run python examples/run_grpo_math.py --config examples/configs/grpo_math_1B.yaml \
    cluster.gpus_per_node=1
