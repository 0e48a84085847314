#!/bin/sh
vllm serve openbmb/MiniCPM-V-4_5 --trust-remote-code --max-model-len 8192
