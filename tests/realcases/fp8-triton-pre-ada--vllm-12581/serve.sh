#!/bin/bash
vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --enforce-eager --trust-remote-code --cpu-offload-gb 128 --max-model-len 4096
