#!/bin/bash

model="meta-llama/Llama-3.3-70B-Instruct"
MAX_INPUT=16384
vllm_port=8086
vllm_volume=$HF_CACHE_DIR

echo "start vllm gaudi service with $model"
docker run -d --runtime=habana --rm --name "vllm-gaudi-server" -e HABANA_VISIBLE_DEVICES=0,1,2,3 -p $vllm_port:80 -v $vllm_volume:/data -e HF_TOKEN=$HF_TOKEN -e HF_HOME=/data -e PT_HPU_ENABLE_LAZY_COLLECTIVES=true -e VLLM_SKIP_WARMUP=true --cap-add=sys_nice --ipc=host opea/vllm-gaudi:comps --model ${model} --host 0.0.0.0 --port 80 --max-seq-len-to-capture $MAX_INPUT --tensor-parallel-size 4
