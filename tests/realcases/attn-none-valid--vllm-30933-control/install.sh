#!/bin/bash
# DeepGEMM, which DeepSeek-V3.2's sparse-attention indexer needs on CUDA (the recipes' install step)
uv pip install git+https://github.com/deepseek-ai/DeepGEMM.git@v2.1.1.post3 --no-build-isolation
