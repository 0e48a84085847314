#!/bin/bash
# the backend test: the sample model repository in the release's vLLM image
docker run --gpus all --rm --shm-size=1G -v "$PWD":/work -w /work \
  nvcr.io/nvidia/tritonserver:25.09-vllm-python-py3 tritonserver --model-repository ./model_repository
