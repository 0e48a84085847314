#!/bin/bash
# the fix's test launch: the same model with adapters allowed, eager mode
vllm serve ibm-granite/granite-4.0-micro --enable-lora --enforce-eager
