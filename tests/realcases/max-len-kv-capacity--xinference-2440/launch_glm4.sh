#!/bin/bash
xinference launch --endpoint http://localhost:9997 --model-engine vllm \
    --model-name glm4-chat --size-in-billions 9 --model-format pytorch \
    --model_path /usr/models/glm-4-9b-chat
