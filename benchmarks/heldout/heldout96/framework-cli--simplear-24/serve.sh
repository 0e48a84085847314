#!/usr/bin/env bash
# Generation server for GRPO, started before the trainer.
CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model ckpts/SimpleAR-0.5B-SFT
