#!/bin/bash
# Qwen3-VL scored by lmms-eval on its vLLM backend (reduced from the repository's example)
# pip install vllm>=0.11.0 qwen-vl-utils
MODEL="Qwen/Qwen3-VL-30B-A3B-Instruct"
TENSOR_PARALLEL_SIZE=4
DATA_PARALLEL_SIZE=1
GPU_MEMORY_UTILIZATION=0.85

LAUNCHER="uv run python -m lmms_eval"
MODEL_ARGS="model=${MODEL},tensor_parallel_size=${TENSOR_PARALLEL_SIZE},gpu_memory_utilization=${GPU_MEMORY_UTILIZATION}"

CMD="${LAUNCHER} \
    --model vllm \
    --model_args ${MODEL_ARGS} \
    --tasks mmmu_val,mme \
    --batch_size 64 \
    --output_path ./logs/qwen3vl_vllm"

eval $CMD
