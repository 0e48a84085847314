#!/bin/bash
llamafactory-cli api examples/qwen2_vllm.yaml
