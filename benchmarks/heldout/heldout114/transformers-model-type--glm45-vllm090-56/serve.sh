#!/bin/bash
vllm serve zai-org/GLM-4.5 --tensor-parallel-size 8
