#!/bin/bash
# two nodes of four GPUs joined into one Ray cluster (`ray start --head` here, `ray start --address=…` on the other);
# tensor parallelism spans both nodes
vllm serve --model /models/gpt-oss-120b --tensor-parallel-size 8 --distributed-executor-backend ray
