docker run --gpus '"device=1,2,3,4"' --shm-size 2g --ipc=host -p 8000:8000 vllm/vllm-openai:v0.5.4 \
    --model models/Qwen2-72B-Instruct-quantized.w8a16 --max-model-len 8192 \
    --tensor-parallel-size 4 --gpu-memory-utilization 0.98 --max-num-seqs 4 --max-num-batched-tokens 32768
