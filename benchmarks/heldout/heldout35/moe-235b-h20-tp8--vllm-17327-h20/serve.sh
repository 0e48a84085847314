#!/bin/sh
vllm serve ./Qwen3-235B-A22B --tensor-parallel-size 8
