#!/bin/bash
# LLMKube operator 0.9.2 (git 82459a96) on K3s; its controller builds the vllm serve arguments.
helm install llmkube llmkube/llmkube --version 0.9.2
kubectl apply -f config/samples/vllm-tinyllama.yaml
