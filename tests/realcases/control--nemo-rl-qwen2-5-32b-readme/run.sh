#!/bin/bash
# what ray.sub runs on the head node for the README's Qwen2.5-32B GRPO (16 nodes of 8 GPUs)
NUM_ACTOR_NODES=16
uv run ./examples/run_grpo_math.py --config examples/configs/grpo_math_8B.yaml \
    policy.model_name='Qwen/Qwen2.5-32B' \
    policy.generation.vllm_cfg.tensor_parallel_size=4 \
    policy.max_total_sequence_length=16384 \
    cluster.num_nodes=${NUM_ACTOR_NODES}
