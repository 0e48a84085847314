#!/bin/sh
vllm serve ./Qwen2.5-32B-Instruct/ --tensor-parallel-size 4
