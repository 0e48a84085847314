#!/bin/sh
vllm serve openbmb/MiniCPM-V-4 --trust-remote-code
