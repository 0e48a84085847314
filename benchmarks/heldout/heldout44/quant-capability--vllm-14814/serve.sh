#!/bin/bash
vllm serve ISTA-DASLab/gemma-3-27b-it-GPTQ-4b-128g \
  --tensor-parallel-size 2 \
  --max-model-len 4096
