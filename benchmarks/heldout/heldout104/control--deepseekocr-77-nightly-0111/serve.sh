#!/usr/bin/env bash
vllm serve deepseek-ai/DeepSeek-OCR
