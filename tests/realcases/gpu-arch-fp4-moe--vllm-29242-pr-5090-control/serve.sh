#!/bin/bash
vllm serve nvidia/Qwen3-30B-A3B-NVFP4
