#!/bin/bash
vllm serve Qwen/Qwen2.5-0.5B-Instruct --host 0.0.0.0 --port 40666 --served-model-name qwen2.5-0.5b-instruct
