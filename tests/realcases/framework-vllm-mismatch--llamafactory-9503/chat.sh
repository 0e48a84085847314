#!/bin/bash
llamafactory-cli chat qwen3_vllm_chat.yaml
