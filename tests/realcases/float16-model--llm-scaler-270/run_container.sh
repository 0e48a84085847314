#!/bin/bash
docker run --rm -it --name scaler-debug --privileged --net=host --device=/dev/dri \
    --ipc=host --shm-size=64g -e ZE_AFFINITY_MASK=2,3 \
    -v /home/intel/LLM:/llm/models --entrypoint bash intel/llm-scaler-vllm:0.11.1-b7
