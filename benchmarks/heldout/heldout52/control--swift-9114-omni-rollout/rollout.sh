#!/bin/bash
# Rollout side of a GSPO run: swift's vLLM server for Qwen3-Omni on the first four GPUs.
export NCCL_DEBUG=INFO
export NCCL_TIMEOUT=3600
export NCCL_ASYNC_ERROR_HANDLING=1
export NCCL_SOCKET_IFNAME=eth0
export NCCL_IB_DISABLE=1
export NCCL_P2P_DISABLE=1
export OMP_NUM_THREADS=8
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True

MAX_PIXELS=602112 \
ENABLE_AUDIO_OUTPUT=0 \
FPS_MAX_FRAMES=32 \
USE_AUDIO_IN_VIDEO=1 \
CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift rollout \
    --model /path/to/Qwen3-Omni-30B-A3B-Instruct \
    --vllm_tensor_parallel_size 4 \
    --vllm_gpu_memory_utilization 0.85 \
    --vllm_max_num_seqs 8 \
    --external_plugins examples/train/grpo/plugin/plugin.py \
    --system examples/train/grpo/prompt.txt \
    --max_length 32768 \
    --enable_thinking false
