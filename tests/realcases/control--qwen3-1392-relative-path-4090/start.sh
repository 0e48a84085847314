#!/bin/bash
vllm serve ./model/Qwen3-4B
