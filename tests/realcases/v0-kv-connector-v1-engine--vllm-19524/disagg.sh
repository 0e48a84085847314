#!/bin/bash
# Disaggregated prefill with the V0 PyNccl connector: a prefill instance (producer) and a decode
# instance (consumer) on two GPUs of one host.
MODEL=meta-llama/Meta-Llama-3.1-8B-Instruct
CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL --port 8100 --max-model-len 100 --gpu-memory-utilization 0.8 \
  --kv-transfer-config '{"kv_connector":"PyNcclConnector","kv_role":"kv_producer","kv_rank":0,"kv_parallel_size":2}' &
CUDA_VISIBLE_DEVICES=1 vllm serve $MODEL --port 8200 --max-model-len 100 --gpu-memory-utilization 0.8 \
  --kv-transfer-config '{"kv_connector":"PyNcclConnector","kv_role":"kv_consumer","kv_rank":1,"kv_parallel_size":2}' &
wait
