#!/bin/sh
# LLaMA-Factory batch inference with vLLM on the merged GLM-4.1V LoRA export
python scripts/vllm_infer.py \
  --model_name_or_path output/glm4_1v_9b_thinking_lora_sft \
  --template glm4v \
  --dataset mllm_demo
