#!/bin/bash
vllm serve openbmb/MiniCPM-V-4_5 --trust-remote-code
