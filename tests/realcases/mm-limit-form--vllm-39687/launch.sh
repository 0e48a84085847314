#!/bin/bash
MODEL=google/gemma-3-12b-it
vllm serve "$MODEL" --port 8000 --limit-mm-per-prompt image=4,audio=1
