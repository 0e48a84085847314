#!/bin/bash
export PYTHON_EXECUTION_BACKEND=dangerously_use_uv
vllm serve openai/gpt-oss-20b --async-scheduling --tool-server demo
