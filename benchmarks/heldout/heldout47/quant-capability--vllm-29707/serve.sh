#!/bin/bash
vllm serve cpatonn/Qwen3-VL-32B-Instruct-AWQ-4bit --tensor-parallel-size 2
