#!/bin/sh
# CPU-only machine, CPU build of vLLM
vllm serve ./models/gpqt/
