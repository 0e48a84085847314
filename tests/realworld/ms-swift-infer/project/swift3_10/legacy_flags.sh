# the 3.4 spelling, still run after the upgrade to 3.10
CUDA_VISIBLE_DEVICES=0,1 \
swift deploy \
    --model Qwen/Qwen2.5-7B-Instruct \
    --infer_backend vllm \
    --gpu_memory_utilization 0.85 \
    --tensor_parallel_size 2
