#!/bin/bash
vllm serve Qwen/Qwen3-8B --enable-reasoning --reasoning-parser qwen3
