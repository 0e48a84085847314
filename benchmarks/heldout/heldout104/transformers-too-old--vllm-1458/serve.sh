#!/usr/bin/env bash
python3 -m vllm.entrypoints.api_server -q awq --model lmsys/vicuna-13b-v1.3
