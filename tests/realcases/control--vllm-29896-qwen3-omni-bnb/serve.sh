#!/bin/bash
vllm serve Qwen/Qwen3-Omni-30B-A3B-Instruct --quantization bitsandbytes --load-format bitsandbytes
