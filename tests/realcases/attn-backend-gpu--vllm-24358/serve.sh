#!/bin/bash
vllm serve unsloth/gpt-oss-20b-unsloth-bnb-4bit --max-model-len 4096
