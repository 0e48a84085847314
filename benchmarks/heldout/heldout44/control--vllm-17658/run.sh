#!/bin/bash
docker run --runtime nvidia -e VLLM_USE_V1=0 --ipc=host -p "8000:8000" \
  --env "HUGGING_FACE_HUB_TOKEN=${HUGGING_FACE_HUB_TOKEN}" \
  --env "CUDA_VISIBLE_DEVICES=0,1" \
  -v "${HF_HOME}:/root/.cache/huggingface" \
  vllm/vllm-openai:v0.8.5 \
  --model ISTA-DASLab/gemma-3-27b-it-GPTQ-4b-128g \
  --tokenizer google/gemma-3-27b-it \
  --gpu-memory-utilization 0.9 \
  --max-model-len 32000 \
  --max_num_seqs 8 \
  --served-model-name ista-daslab-gemma-3-27b-it-gptq-4b-128g \
  --tensor_parallel_size 2
