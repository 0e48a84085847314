#!/bin/bash
accelerate launch --num_processes 4 infer_dp.py
