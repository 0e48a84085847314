#!/bin/bash
# LLaMA-Factory batch inference with vLLM on the fine-tuned LoRA adapter
cd LLaMA-Factory
python scripts/vllm_infer.py \
    --model_name_or_path deepseek-ai/DeepSeek-V3 \
    --adapter_name_or_path saves/deepseek3/lora/sft \
    --template deepseek3 \
    --dataset sc_test \
    --save_name generated_predictions.jsonl
