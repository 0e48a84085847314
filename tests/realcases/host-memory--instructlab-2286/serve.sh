#!/bin/bash
# what `ilab model serve` runs with the config's vllm_args
python -m vllm.entrypoints.openai.api_server \
    --model instructlab/granite-7b-lab \
    --host 127.0.0.1 --port 8000 \
    --tensor-parallel-size 4
