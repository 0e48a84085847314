#!/bin/bash
# the baseline run of the s1 paper's evaluation: Qwen2.5-32B-Instruct, up to 32768 new tokens per answer
PROCESSOR=gpt-4o-mini lm_eval --model vllm \
  --model_args pretrained=Qwen/Qwen2.5-32B-Instruct,tokenizer=Qwen/Qwen2.5-32B-Instruct,dtype=float32,tensor_parallel_size=8 \
  --tasks aime24_figures,aime24_nofigures,openai_math,gpqa_diamond_openai \
  --batch_size auto --apply_chat_template --output_path qwen --log_samples \
  --gen_kwargs "max_gen_toks=32768"
