#!/bin/bash
vllm serve deepseek-ai/DeepSeek-OCR --trust-remote-code
