#!/bin/bash
# rollout server for GRPO in server mode
trl vllm-serve --model Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 1
