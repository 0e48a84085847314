#!/bin/bash
# production-stack Helm chart (release of July 2025) with the values below
helm repo add vllm https://vllm-project.github.io/production-stack
helm install vllm vllm/vllm-stack --version 0.1.5 -n prod -f values.yaml
