#!/bin/sh
vllm serve unsloth/llama-3-8b-Instruct --lora-path ./outputs/lora_model --max-model-len 4096
