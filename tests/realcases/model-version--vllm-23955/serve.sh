#!/bin/bash
vllm serve openbmb/MiniCPM-V-4_5 --tensor-parallel-size=2 --trust-remote-code
