#!/bin/bash
vllm serve openai/gpt-oss-120b --port 8120 \
  --tensor-parallel-size 8 --api-key gpt_oss
