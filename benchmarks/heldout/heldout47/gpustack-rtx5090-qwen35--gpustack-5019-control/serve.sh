#!/bin/bash
# what the GPUStack worker starts for the instance
vllm serve Qwen/Qwen3.5-0.8B --max-model-len 8192 --served-model-name qwen3.5-0.8b --host 0.0.0.0 --port 40060
