#!/usr/bin/env bash
# Qwen2-VL-2B-Instruct downloaded from Hugging Face, served with defaults.
vllm serve Qwen/Qwen2-VL-2B-Instruct
