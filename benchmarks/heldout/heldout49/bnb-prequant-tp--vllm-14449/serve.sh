#!/bin/sh
# two RTX A6000 (48 GB), a pre-quantized bitsandbytes 4-bit QwQ split with tensor parallelism
VLLM_LOGGING_LEVEL=DEBUG \
CUDA_LAUNCH_BLOCKING=1 \
NCCL_DEBUG=TRACE \
NCCL_P2P_DISABLE=1 \
vllm serve unsloth/QwQ-32B-unsloth-bnb-4bit \
  --download-dir /mnt/raid/models/ \
  --load-format bitsandbytes \
  --quantization bitsandbytes \
  --dtype auto \
  --kv-cache-dtype auto \
  --max-model-len 32768 \
  --tensor-parallel-size 2 \
  --pipeline-parallel-size 1 \
  --disable-custom-all-reduce \
  --enforce-eager \
  --enable-chunked-prefill \
  --host 127.0.0.1 \
  --port 8080
