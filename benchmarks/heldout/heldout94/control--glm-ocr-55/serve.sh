#!/bin/sh
vllm serve --model zai-org/GLM-OCR --port 8080
