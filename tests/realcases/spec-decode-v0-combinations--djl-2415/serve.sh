#!/bin/sh
# a Medusa draft for a small Llama, as the LMI container passes it to vLLM
vllm serve JackFram/llama-68m --speculative-model abhigoyal/vllm-medusa-llama-68m-random --num-speculative-tokens 4 --max-num-seqs 4
