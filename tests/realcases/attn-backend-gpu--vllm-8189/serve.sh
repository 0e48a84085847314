#!/bin/sh
export VLLM_ATTENTION_BACKEND=FLASHINFER
python3 -m vllm.entrypoints.openai.api_server --model /mnt/e/Code/models/huihui-ai-phi-4-abliterated-W8A8 \
    --max-model-len 4096 --tensor-parallel-size 2 --dtype=half --num-scheduler-steps 50
