#!/bin/sh
vllm serve ibm-granite/granite-embedding-english-r2 --runner pooling --gpu-memory-utilization 0.3
