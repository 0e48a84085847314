#!/bin/bash
# the trainer on the other four GPUs, asking the server above for completions
CUDA_VISIBLE_DEVICES=4,5,6,7 accelerate launch train.py
