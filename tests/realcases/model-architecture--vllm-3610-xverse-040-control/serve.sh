#!/bin/bash
python -m vllm.entrypoints.openai.api_server --model /data/models/XVERSE-13B-Chat --trust-remote-code --tensor-parallel-size 2
