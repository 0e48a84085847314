#!/bin/bash
# a local copy of the 1M-context Qwen2.5-7B on an NFS share, four GPUs
vllm serve /home/user/nfs_data/model/Qwen/Qwen2.5-7B-Instruct-1M \
  --tensor-parallel-size 4
