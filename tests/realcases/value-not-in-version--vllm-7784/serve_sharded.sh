#!/bin/bash
vllm serve Meta-Llama-3-8B-Instruct-FP8-SHARDED --tensor-parallel-size 2 --load-format sharded_state
