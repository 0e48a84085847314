vllm serve OpenGVLab/InternVL2-8B --trust-remote-code --enable-chunked-prefill False \
    --gpu-memory-utilization 0.9 --tensor-parallel-size 2
