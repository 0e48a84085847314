docker run --runtime nvidia --gpus '"device=1"' \
    -v $(pwd)/tuning/pretrained_models/exported_full_model:/app/model \
    -p 30005:8000 --ipc=host \
    vllm/vllm-openai:v0.4.2 \
    --model /app/model \
    --gpu-memory-utilization 0.7 \
    --trust-remote-code
