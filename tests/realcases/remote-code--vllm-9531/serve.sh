#!/usr/bin/env bash
vllm serve ./internvl2-8b/ --port 8000
