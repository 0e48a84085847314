#!/bin/bash
# QAnything docker edition, custom local model served by FastChat's vLLM worker
bash ./run.sh -c local -i 0 -b vllm -m Qwen-14B-Chat -t qwen-7b-chat -p 1 -r 0.85
