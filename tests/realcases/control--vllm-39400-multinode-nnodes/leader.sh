#!/bin/bash
# the leader pod of a LeaderWorkerSet (two nodes, eight GPUs each), multiprocessing backend
vllm serve meta-llama/Meta-Llama-3.1-405B-Instruct --tensor-parallel-size 8 --pipeline-parallel-size 2 --nnodes 2 --node-rank 0 --master-addr vllm-0.vllm.default --port 8080
