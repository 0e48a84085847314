#!/bin/bash
vllm serve google/gemma-3-12b-it --port 8000 \
  --limit-mm-per-prompt '{"image": 4, "audio": 1}'
