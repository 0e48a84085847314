#!/bin/bash
trl vllm-serve --model models/Qwen2.5-7B-Instruct
