#!/bin/bash
# vLLM with the OpenVINO backend in a container.

default_port=8008
default_model="meta-llama/Llama-2-7b-hf"
default_device="cpu"
image="vllm:openvino"

while getopts ":hm:p:d:" opt; do
  case $opt in
    h)
      echo "Usage: $0 [-h] [-m model] [-p port] [-d device]"
      exit 0
      ;;
    m)
      model=$OPTARG
      ;;
    p)
      port=$OPTARG
      ;;
    d)
      device=$OPTARG
      ;;
    \?)
      echo "Invalid option: -$OPTARG" >&2
      exit 1
      ;;
  esac
done

model_name=${model:-$default_model}
port_number=${port:-$default_port}
device=${device:-$default_device}

docker run -d --rm --name="vllm-openvino-server" \
  -p $port_number:80 \
  --ipc=host \
  -e HF_TOKEN=${HF_TOKEN} \
  -v $HOME/.cache/huggingface:/root/.cache/huggingface \
  $image /bin/bash -c "\
    cd / && \
    export VLLM_CPU_KVCACHE_SPACE=50 && \
    python3 -m vllm.entrypoints.openai.api_server \
      --model \"$model_name\" \
      --host 0.0.0.0 \
      --port 80"
