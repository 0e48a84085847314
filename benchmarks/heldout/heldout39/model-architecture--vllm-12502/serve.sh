#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-VL-72B-Instruct --tensor-parallel-size 4
