#!/bin/bash
serve build services.text_embedding.qwen3_embedding:app -o config.yaml
serve run config.yaml
