#!/bin/sh
accelerate launch --config_file accelerate.yaml --num_processes=7 train_grpo.py --config grpo_config.yaml
