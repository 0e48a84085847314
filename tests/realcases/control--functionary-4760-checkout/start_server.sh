#!/bin/sh
# functionary's OpenAI-style server, run from a clone of MeetKai/functionary (the clone is not this project)
python server_vllm.py --model /models/functionary-small-v2.4 --served-model-name functionary \
  --dtype=bfloat16 --max-model-len 2048 --enforce-eager --gpu-memory-utilization 0.94 \
  --host 0.0.0.0 --port 8000
