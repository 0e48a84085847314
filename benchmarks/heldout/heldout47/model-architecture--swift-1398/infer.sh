#!/bin/bash
CUDA_VISIBLE_DEVICES=0 swift infer \
    --model_type phi3-vision-128k-instruct \
    --infer_backend vllm
