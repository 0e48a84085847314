#!/bin/sh
vllm serve zai-org/GLM-OCR --allowed-local-media-path / --port 8080
