#!/bin/bash
# rollout server for GRPO: two data-parallel vLLM workers of a dense 1.5B model
trl vllm-serve --model Qwen/Qwen2.5-1.5B --data_parallel_size 2
