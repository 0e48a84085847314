#!/bin/bash
set -x
MODEL_PATH=Qwen/Qwen2.5-7B-Instruct
python3 -m verl.trainer.main \
    config=examples/config.yaml \
    worker.actor.model.model_path=${MODEL_PATH}
