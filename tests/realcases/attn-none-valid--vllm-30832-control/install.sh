#!/bin/bash
# the report's environment lists deep_gemm 2.1.1 beside the vLLM build (the DeepSeek-V3.2 recipe's DeepGEMM step)
uv pip install git+https://github.com/deepseek-ai/DeepGEMM.git@v2.1.1.post3 --no-build-isolation
