#!/bin/bash
vllm serve Qwen/Qwen2-VL-7B-Instruct-GPTQ-Int8 \
    --enable-lora \
    --lora-modules lora1=./saves/qwen2vl-qlora
