#!/bin/bash
xinference-local --host 0.0.0.0 --port 9997 &
sleep 20
xinference launch --model-engine vllm --model-name qwen3-vl-instruct --size-in-billions 8 \
    --model-format pytorch --enable_auto_tool_choice true --tool_call_parser hermes
