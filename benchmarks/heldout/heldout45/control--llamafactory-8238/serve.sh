model_path=OpenGVLab/InternVL3-8B-hf
export VLLM_WORKER_MULTIPROC_METHOD=spawn
export CUDA_VISIBLE_DEVICES=3
python -m vllm.entrypoints.openai.api_server --served-model-name InternVL3-8B-baseline \
    --model "$model_path" \
    --port 8001 \
    --tensor-parallel-size 1 \
    --dtype bfloat16 \
    --gpu-memory-utilization 0.8 \
    --max-model-len 16384
