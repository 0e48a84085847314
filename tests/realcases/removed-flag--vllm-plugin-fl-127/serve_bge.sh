#!/bin/bash
vllm serve /root/.cache/modelscope/hub/models/BAAI/bge-m3 --task embed \
  --hf-overrides '{"architectures": ["BgeM3EmbeddingModel"]}'
