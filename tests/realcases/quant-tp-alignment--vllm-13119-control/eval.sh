#!/bin/bash
# gsm8k through the harness on one GPU, the community AWQ upload from the Hub
lm_eval --model vllm \
    --model_args pretrained=TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ,trust_remote_code=True \
    --tasks gsm8k --num_fewshot 5 --batch_size auto
