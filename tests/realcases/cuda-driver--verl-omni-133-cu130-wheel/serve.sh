#!/bin/bash
vllm serve Qwen/Qwen2.5-Omni-7B --max-model-len 8192
