#!/bin/bash
CUDA_VISIBLE_DEVICES=0 llamafactory-cli api examples/inference/qwen_vllm.yaml
