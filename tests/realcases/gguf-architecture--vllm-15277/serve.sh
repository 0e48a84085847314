#!/bin/bash
# the merged 1.58-bit GGUF of DeepSeek-R1, its config read from the file itself
vllm serve /data/models/DeepSeek-R1-GGUF/DeepSeek-R1-UD-IQ1_S.gguf \
    --tokenizer deepseek-ai/DeepSeek-R1 \
    --tensor-parallel-size 8 --max-model-len 8192
