#!/usr/bin/env bash
set -euo pipefail
torchrun --standalone --nnodes=1 --nproc_per_node=8 \
  -m scripts.pairwise_margin_training \
  data.train_files=data/pairs.parquet \
  data.micro_batch_size_per_gpu=2 \
  data.max_length=8192 \
  model.path=/models/Qwen3.6-27B \
  optim.lr=1e-6 \
  trainer.total_epochs=1
