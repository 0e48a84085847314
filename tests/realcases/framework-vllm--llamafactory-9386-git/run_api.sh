#!/bin/sh
CUDA_VISIBLE_DEVICES=0 API_PORT=8000 llamafactory-cli api infer_vllm.yaml
