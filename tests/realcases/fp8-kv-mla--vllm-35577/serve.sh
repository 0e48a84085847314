#!/bin/bash
vllm serve ./models/GLM-4.7-Flash-REAP-23B-A3B-NVFP4 --kv-cache-dtype fp8_e4m3 --max-model-len 8192
