#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model /root/.cache/modelscope/hub/qwen/Qwen2-VL-7B-Instruct/ --dtype=float32
