#!/bin/bash
# eight H100 SXM on one HGX board; the context is left at the model's 128K
vllm serve meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 --tensor-parallel-size 8
