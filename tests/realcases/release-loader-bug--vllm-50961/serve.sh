#!/bin/sh
# Granite 4.0-H (GraniteMoeHybridForCausalLM) split into two pipeline stages on one node
vllm serve ibm-granite/granite-4.0-h-tiny --pipeline-parallel-size 2
