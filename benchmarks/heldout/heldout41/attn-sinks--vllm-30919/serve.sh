#!/bin/bash
export VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1
python3 -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8087 \
  --model openai/gpt-oss-120b --tokenizer openai/gpt-oss-120b \
  --dtype auto --kv-cache-dtype fp8 \
  --tensor-parallel-size 8 --pipeline-parallel-size 1 --data-parallel-size 1 \
  --swap-space 16 --max-num-seqs 1024 --trust-remote-code \
  --max-model-len 2058 --gpu-memory-utilization 0.9 \
  --max-num-batched-tokens 8192 --no-enable-prefix-caching \
  --async-scheduling --stream-interval 20 \
  --compilation_config.pass_config.fuse_allreduce_rms true \
  --compilation_config.pass_config.eliminate_noops true \
  --compilation_config.max_cudagraph_capture_size 2048
