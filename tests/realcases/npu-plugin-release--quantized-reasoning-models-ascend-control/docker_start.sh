#!/bin/bash
# the container the project's scripts run in: vLLM's Ascend plugin image
export IMAGE=quay.io/ascend/vllm-ascend:v0.10.0rc1
docker run --name vllm-ascend01 \
    --device=/dev/davinci_manager --device=/dev/devmm_svm --device=/dev/hisi_hdc \
    --device=/dev/davinci0 --device=/dev/davinci1 \
    -v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/ \
    -v /root/.cache:/root/.cache \
    -it -d $IMAGE bash
