#!/bin/bash
vllm serve /root/.cache/modelscope/hub/models/BAAI/bge-m3 \
  --hf-overrides '{"architectures": ["BgeM3EmbeddingModel"]}'
