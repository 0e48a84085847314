#!/bin/sh
vllm serve Qwen/Qwen2.5-VL-7B-Instruct
