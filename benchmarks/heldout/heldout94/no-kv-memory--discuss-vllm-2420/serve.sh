#!/bin/sh
vllm serve Qwen/Qwen3.5-9B
