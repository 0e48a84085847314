#!/bin/sh
VLLM_USE_V1=1 VLLM_WORKER_MULTIPROC_METHOD=spawn \
python3 -m vllm.entrypoints.openai.api_server \
    --model ${MODEL_PATH} \
    --dtype=float16 \
    --enforce-eager \
    --port 8000 \
    --trust-remote-code \
    --max-model-len=${MAX_MODEL_LEN} \
    --disable-log-requests
