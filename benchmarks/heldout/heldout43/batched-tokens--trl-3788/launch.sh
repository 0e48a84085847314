#!/bin/sh
accelerate launch --num_processes 8 run_grpo.py
