#!/bin/bash
set -x
python3 -m verl.trainer.main \
    config=examples/config.yaml \
    data.max_prompt_length=4096 \
    data.max_response_length=4096 \
    worker.rollout.max_num_batched_tokens=1024
