#!/bin/bash
# the vendor's vLLM image for Hunyuan-A13B, run on a Blackwell machine
docker run --privileged --user root --net=host --ipc=host \
  -v ~/.cache:/root/.cache/ \
  --gpus=all -it --entrypoint python hunyuaninfer/hunyuan-a13b:hunyuan-moe-A13B-vllm \
  -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 9900 \
  --model tencent/Hunyuan-A13B-Instruct --trust-remote-code
