#!/bin/sh
vllm serve Qwen/Qwen3-Embedding-8B --task embed
