#!/bin/bash
accelerate launch --num_processes 3 src/grpo.py --config recipes/grpo-qwen-3b.yaml
