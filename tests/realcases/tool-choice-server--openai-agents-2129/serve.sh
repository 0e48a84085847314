#!/bin/bash
vllm serve Qwen/Qwen3-4B-AWQ --served-model-name models/Qwen3-4B-AWQ --port 8090
