#!/bin/bash
vllm serve THUDM/glm-4-9b-chat --trust-remote-code --max-model-len 8192
