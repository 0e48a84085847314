#!/bin/sh
vllm serve ./models/GLM-4.5-Air-FP8 \
  --tensor-parallel-size 8
