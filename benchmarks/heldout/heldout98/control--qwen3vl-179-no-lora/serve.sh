#!/bin/bash
vllm serve Qwen/Qwen2-VL-7B-Instruct-GPTQ-Int8
