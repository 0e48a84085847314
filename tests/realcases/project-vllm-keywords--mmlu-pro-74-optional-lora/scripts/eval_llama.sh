#!/bin/bash
cd ../
export CUDA_VISIBLE_DEVICES=0
python evaluate.py --model meta-llama/Llama-2-7b-hf
