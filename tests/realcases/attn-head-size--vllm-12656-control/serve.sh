#!/bin/bash
vllm serve openbmb/MiniCPM-V-2_6 --trust-remote-code --max-model-len 8192
