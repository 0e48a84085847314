#!/bin/bash
API_PORT=8000 llamafactory-cli api qwen2vl_vllm.yaml
