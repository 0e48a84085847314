#!/bin/bash
vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size  1           --max-model-len 40000 --enable-auto-tool-choice --tool-call-parser llama3_json  --max-num-seqs 4 --enforce-eager  --enable-log-outputs --enable-log-requests
