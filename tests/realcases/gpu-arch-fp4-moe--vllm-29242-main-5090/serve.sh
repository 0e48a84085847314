#!/bin/bash
vllm serve RedHatAI/Qwen3-30B-A3B-NVFP4
