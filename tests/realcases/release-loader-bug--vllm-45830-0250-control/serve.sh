#!/bin/sh
# the BF16 (dequantized) conversion of gpt-oss-20b, served as the report's direct reproduction
vllm serve unsloth/gpt-oss-20b-BF16 --dtype bfloat16 --trust-remote-code
