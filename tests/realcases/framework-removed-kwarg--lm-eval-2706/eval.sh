#!/bin/bash
# one vLLM engine per GPU, eight replicas
lm_eval --model vllm \
    --model_args pretrained=Qwen/Qwen2.5-7B-Instruct,tensor_parallel_size=1,dtype=auto,gpu_memory_utilization=0.8,data_parallel_size=8 \
    --tasks mmlu \
    --batch_size auto
