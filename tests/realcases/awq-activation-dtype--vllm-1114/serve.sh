#!/usr/bin/env bash
# The uploader's own check of his AWQ upload through vLLM's demo API server
python -m vllm.entrypoints.api_server --model TheBloke/Spicyboros-13B-2.2-AWQ --quantization awq
