#!/bin/bash
set -a
. ./.env
set +a
vllm serve $MODEL --tensor-parallel-size 3
