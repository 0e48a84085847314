#!/bin/bash
API_PORT=9099 CUDA_VISIBLE_DEVICES=4,5 llamafactory-cli api qwen-1.5-72B-Chat.yaml
