#!/bin/sh
# a Qwen2.5-VL-7B sequence-classification fine-tune (seq_cls head), four Tesla T4 cards
vllm serve ./models/qwen2_5_vl_7b_seq_cls \
  --tensor-parallel-size 4 \
  --dtype half
