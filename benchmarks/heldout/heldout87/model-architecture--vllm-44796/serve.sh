#!/bin/sh
# One L40S (46 GB)
vllm serve google/gemma-4-12B-it-qat-w4a16-ct
