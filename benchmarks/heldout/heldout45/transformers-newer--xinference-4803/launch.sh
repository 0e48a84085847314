XINFERENCE_ENABLE_VIRTUAL_ENV=0 xinference-local --host 0.0.0.0 --port 9997 &
sleep 30
xinference launch --model-name qwen3.5 --model-type LLM --model-engine vLLM \
    --model-format pytorch --size-in-billions 35 --quantization none
