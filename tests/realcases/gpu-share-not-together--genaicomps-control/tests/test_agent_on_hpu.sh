#!/bin/bash
model="meta-llama/Llama-3.3-70B-Instruct"

function start_vllm_service() {
    docker run -d --runtime=habana --rm --name "agent-vllm-gaudi" -e HF_TOKEN=$HF_TOKEN -e HABANA_VISIBLE_DEVICES=all -p 8086:8000 --ipc=host opea/vllm-gaudi:comps --model ${model} --tensor-parallel-size 4
}

function start_vllm_service_70B() {
    docker run -d --runtime=habana --rm --name "agent-vllm-gaudi" -e HF_TOKEN=$HF_TOKEN -e HABANA_VISIBLE_DEVICES=0,1,2,3 -p 8086:8000 --ipc=host opea/vllm-gaudi:comps --model ${model} --tensor-parallel-size 4
}

function stop_vllm_docker() {
    cid=$(docker ps -aq --filter "name=agent-vllm-gaudi")
    if [[ ! -z "$cid" ]]; then docker rm $cid -f; fi
}

function main() {
    start_vllm_service_70B
    # ... the agent tests against it ...
    stop_vllm_docker
    # start_vllm_service
    # stop_vllm_docker
}

main
