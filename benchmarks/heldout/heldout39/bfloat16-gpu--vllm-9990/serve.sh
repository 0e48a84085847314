#!/bin/bash
vllm serve Qwen/Qwen2.5-0.5B --use-v2-block-manager
