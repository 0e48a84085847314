#!/bin/bash
# a block size of 128 on a Hopper GPU, a release after the CUDA limit of 0.6.6 was lifted
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --block-size 128
