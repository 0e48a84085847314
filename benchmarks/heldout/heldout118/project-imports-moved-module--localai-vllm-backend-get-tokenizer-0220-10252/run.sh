#!/usr/bin/env bash
# LocalAI starts the backend process, then asks it over gRPC to load the model.
python backend.py --addr 127.0.0.1:50051 --model Qwen/Qwen3-8B
