#!/bin/bash
# start the OpenAI server with the `vllm` command when it exists, else through the module
MODEL="Qwen/Qwen2.5-7B-Instruct"
LAUNCH=""
if command -v vllm >/dev/null 2>&1; then
    LAUNCH="cli"
else
    LAUNCH="module"
fi

if [ "$LAUNCH" = "cli" ]; then
    VLLM_ARGS=(
        vllm serve "$MODEL"
        --tensor-parallel-size 2
        --max-model-len 16384
        --gpu-memory-utilization 0.85
    )
else
    VLLM_ARGS=(
        python -m vllm.entrypoints.openai.api_server
        --model "$MODEL"
        --tensor-parallel-size 2
        --max-model-len 16384
        --gpu-memory-utilization 0.85
    )
fi
"${VLLM_ARGS[@]}" > vllm.log 2>&1 &
