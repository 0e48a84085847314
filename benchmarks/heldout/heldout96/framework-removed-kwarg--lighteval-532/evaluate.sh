#!/usr/bin/env bash
# open-r1 style evaluation, one vLLM replica per GPU through lighteval's data_parallel_size.
MODEL=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B
MODEL_ARGS="pretrained=$MODEL,dtype=bfloat16,data_parallel_size=8,max_model_length=32768,gpu_memory_utilization=0.8"
lighteval vllm "$MODEL_ARGS" "custom|aime24|0|0" \
    --custom-tasks src/open_r1/evaluate.py \
    --use-chat-template \
    --output-dir data/evals/$MODEL
