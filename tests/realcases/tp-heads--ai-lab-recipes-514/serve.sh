#!/bin/bash
# what `ilab serve` launches on this 3-GPU host
NGPUS=$(nvidia-smi -L | wc -l)
python -m vllm.entrypoints.openai.api_server \
    --model models/merlinite-7b-lab \
    --tensor-parallel-size "${NGPUS}" \
    --host 0.0.0.0 --port 8000
