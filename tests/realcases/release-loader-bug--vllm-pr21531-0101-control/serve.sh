#!/bin/sh
# GLM-4.5-Air split over two pipeline stages of four GPUs
vllm serve zai-org/GLM-4.5-Air --tensor-parallel-size 4 --pipeline-parallel-size 2
