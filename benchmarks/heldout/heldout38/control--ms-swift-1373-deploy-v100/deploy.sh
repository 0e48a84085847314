#!/bin/bash
RAY_memory_monitor_refresh_ms=0 CUDA_VISIBLE_DEVICES=0,1,2,3 swift deploy \
    --model_type qwen-7b-chat \
    --tensor_parallel_size 4 \
    --ckpt_dir /root/my_lib/swift/examples/pytorch/llm/output_gjh/qwen-7b-chat/v4-20240704-175107/checkpoint-5490-merged \
    --temperatue 0.0
