#!/bin/sh
vllm serve Qwen/Qwen3-8B --enable-logging-iteration-details
