#!/bin/bash
# OpenAI-style API of LLaMA-Factory, vLLM backend, merged Qwen-14B plus a LoRA adapter, one GPU
export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1
CUDA_VISIBLE_DEVICES=0 API_PORT=8000 llamafactory-cli api \
    --model_name_or_path ./models/megred-model-path \
    --adapter_name_or_path ./saves/Qwen-14B/lora/sft \
    --template qwen \
    --finetuning_type lora \
    --infer_backend vllm \
    --vllm_enforce_eager \
    --trust_remote_code=True
