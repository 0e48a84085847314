#!/bin/sh
vllm serve "openbmb/MiniCPM-V-4_5" --port 5001 --trust-remote-code
