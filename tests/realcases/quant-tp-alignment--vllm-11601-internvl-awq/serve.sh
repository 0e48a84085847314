#!/bin/bash
# a local copy of the Hub upload; the project holds none of its files
vllm serve /root/hf_model/OpenGVLab/InternVL2_5-78B-MPO-AWQ \
    --trust-remote-code --dtype float16 \
    --tensor-parallel-size 4 --max-model-len 6400
