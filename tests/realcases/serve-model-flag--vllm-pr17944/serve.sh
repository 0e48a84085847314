#!/usr/bin/env bash
vllm serve --model mistralai/Mistral-7B-Instruct-v0.3 --port 8000
