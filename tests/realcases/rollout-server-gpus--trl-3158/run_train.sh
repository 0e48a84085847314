#!/bin/bash
CUDA_VISIBLE_DEVICES=0 accelerate launch train_grpo.py
