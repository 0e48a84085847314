#!/bin/bash
vllm serve Qwen/QwQ-32B --served-model-name qwq-32b --port 8000 --max-model-len 32768
