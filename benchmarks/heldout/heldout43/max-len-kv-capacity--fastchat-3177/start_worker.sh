#!/bin/sh
echo "Run model worker..."
python3 -m fastchat.serve.vllm_worker \
    --model-path ./models/qwen1.5-4b-chat \
    --model-names qwen1.5-4b-chat \
    --trust-remote-code \
    --enforce-eager \
    --controller-address http://localhost:21001 \
    --worker-address http://localhost:21002 \
    --host 0.0.0.0 --port 21002
