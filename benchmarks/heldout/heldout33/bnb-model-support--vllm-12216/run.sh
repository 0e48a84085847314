#!/bin/sh
docker run --runtime nvidia --gpus all -v /path/to/models:/data/vllm.model \
  --env "HUGGING_FACE_HUB_TOKEN=$HF_TOKEN" -p 8000:8000 --ipc=host \
  vllm/vllm-openai:v0.6.6.post1 \
  --model /path/to/model/dir/paligemma2-28b-pt-896 \
  --quantization bitsandbytes --load-format bitsandbytes \
  --served-model-name paligemma2-28b --max-model-len 8192 \
  --distributed-executor-backend mp --tensor-parallel-size 2
