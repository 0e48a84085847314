#!/bin/bash
vllm serve RedHatAI/Qwen3-30B-A3B-NVFP4 --port 8002 --gpu-memory-utilization 0.7
