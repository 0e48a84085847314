#!/bin/sh
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
# first model on GPU 0 (vLLM takes its default 90% of the card)
xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 \
  --model-format pytorch --quantization none --gpu-idx 0
# second model on the same GPU: the engine refuses at start-up
xinference launch --model-engine vllm --model-name qwen3 --size-in-billions 8 \
  --model-format pytorch --quantization none --gpu-idx 0
