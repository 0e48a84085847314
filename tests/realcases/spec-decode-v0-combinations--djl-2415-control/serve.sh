#!/bin/sh
# the same draft with the V2 block manager the LMI container now requires
vllm serve JackFram/llama-68m --speculative-model abhigoyal/vllm-medusa-llama-68m-random --num-speculative-tokens 4 --max-num-seqs 4 --use-v2-block-manager
