#!/bin/bash
# serve the full-parameter SFT of gemma-4-E4B-it that ms-swift saved (bfloat16, no quantization)
vllm serve ./checkpoints/exp-422/checkpoint-1000 --max-model-len 8192
