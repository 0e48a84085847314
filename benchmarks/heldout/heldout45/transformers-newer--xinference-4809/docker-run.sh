docker run -d --name xinference \
  -e XINFERENCE_MODEL_SRC=modelscope \
  -e XINFERENCE_HOME=/xinference \
  -e CUDA_DEVICE_ORDER=PCI_BUS_ID \
  -e NCCL_P2P_DISABLE=1 -e NCCL_IB_DISABLE=1 \
  -p 11434:9997 --shm-size=32g \
  -v xinference-data:/xinference \
  --gpus all \
  xprobe/xinference:v2.4.0 \
  xinference-local -H 0.0.0.0 --log-level debug
# then, from the web UI or CLI:
xinference launch --model-name qwen3.5 --model-type LLM --model-engine vLLM \
    --model-format pytorch --size-in-billions 9 --quantization none
