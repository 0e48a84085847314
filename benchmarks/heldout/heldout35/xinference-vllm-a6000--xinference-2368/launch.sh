#!/bin/sh
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch --model-engine vllm --model-name qwen2.5-instruct --size-in-billions 7 --model-format pytorch --quantization none
