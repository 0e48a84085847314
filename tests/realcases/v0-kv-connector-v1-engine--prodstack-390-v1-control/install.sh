#!/bin/bash
helm repo add vllm https://vllm-project.github.io/production-stack
helm install vllm vllm/vllm-stack --version 0.1.2 -f values.yaml
