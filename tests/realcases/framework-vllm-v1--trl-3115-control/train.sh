#!/bin/bash
accelerate launch --num_processes 7 grpo.py
