#!/bin/sh
# DBRX Instruct across eight GPUs
vllm serve databricks/dbrx-instruct --tensor-parallel-size 8 --trust-remote-code
