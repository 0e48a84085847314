#!/bin/bash
# GRPO with a vLLM rollout whose CUDA-graph batch sizes are set by the rollout config
GRAPH_SIZES='[16,32,64,128]'
ROLLOUT_TP=8

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.max_prompt_length=2048 \
    data.max_response_length=8192 \
    actor_rollout_ref.model.path=Qwen/Qwen3-32B \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=${ROLLOUT_TP} \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.85 \
    actor_rollout_ref.rollout.max_num_seqs=128 \
    actor_rollout_ref.rollout.enforce_eager=False \
    actor_rollout_ref.rollout.cudagraph_capture_sizes="${GRAPH_SIZES}" \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1
