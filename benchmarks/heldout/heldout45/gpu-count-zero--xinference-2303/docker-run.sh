docker run -d -p 9997:9997 --gpus all \
  -v /root/xinference:/root/xinference -e XINFERENCE_HOME=/root/xinference \
  -e XINFERENCE_MODEL_SRC=modelscope \
  xprobe/xinference:v0.15.0 xinference-local -H 0.0.0.0
xinference launch --model-engine vLLM --model-name qwen2-instruct --size-in-billions 7 \
    --model-format pytorch --quantization none
