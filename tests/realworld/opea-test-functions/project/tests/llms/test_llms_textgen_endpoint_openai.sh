#!/bin/bash
# End-to-end test: a vLLM CPU server in one container, the textgen service in another.

set -e

export WORKPATH=$(dirname "$PWD")
export host_ip=$(hostname -I | awk '{print $1}')
export LOG_PATH="$WORKPATH/tests"
export VLLM_MODEL="Qwen/Qwen2.5-0.5B-Instruct"
export LLM_ENDPOINT_PORT="8000"
export OPENAI_API_KEY=testkey


function build_vllm_image() {
    rm -rf $WORKPATH/vllm
    cd $WORKPATH
    source $(git rev-parse --show-toplevel)/.github/env/_vllm_versions.sh
    git clone --depth 1 -b ${VLLM_VER} --single-branch https://github.com/vllm-project/vllm.git && cd vllm
    docker build --no-cache -f docker/Dockerfile.cpu -t opea/vllm-cpu:test .
    cd $WORKPATH
}

function start_vllm() {
    export VLLM_API_KEY=${OPENAI_API_KEY}

    # the CPU backend wants block size 16 unless IPEX is installed
    BLOCK_SIZE=16

    docker run --rm -d \
        -p ${LLM_ENDPOINT_PORT}:8000 \
        -e VLLM_API_KEY=${OPENAI_API_KEY} \
        -e VLLM_USE_CPU=1 \
        -e VLLM_CPU_OMP_THREADS_BIND=all \
        -e VLLM_CPU_KVCACHE_SPACE=4 \
        --name vllm-server \
        --network bridge \
        opea/vllm-cpu:test \
        --model ${VLLM_MODEL} \
        --port 8000 \
        --host 0.0.0.0 \
        --block-size ${BLOCK_SIZE}

    until docker logs vllm-server 2>&1 | grep -q "Application startup complete"; do
        sleep 10
    done
}

function stop_containers() {
    docker stop vllm-server || true
}

build_vllm_image
start_vllm
stop_containers

echo "All tests completed."
