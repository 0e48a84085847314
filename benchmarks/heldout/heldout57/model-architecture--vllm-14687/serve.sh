#!/bin/sh
vllm serve "google/gemma-3-12b-it" --tensor-parallel-size 2
