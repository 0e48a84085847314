#!/bin/bash
vllm serve ./InternVL3-14B-AWQ \
    --dtype auto --port 7114 --trust-remote-code \
    --limit_mm_per_prompt image=4 --max_model_len 8784 --gpu_memory_utilization 0.45
