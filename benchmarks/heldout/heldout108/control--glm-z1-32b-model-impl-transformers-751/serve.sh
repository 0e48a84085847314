#!/bin/sh
vllm serve THUDM/GLM-Z1-32B-0414 --model-impl transformers
