#!/bin/bash
# Serve an image-edit diffusion model through the vLLM-Omni plugin.
vllm serve Qwen/Qwen-Image-Edit --omni --port 8092
