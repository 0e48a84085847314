#!/bin/bash
vllm serve zai-org/GLM-4.7-FP8 --tensor-parallel-size 6
