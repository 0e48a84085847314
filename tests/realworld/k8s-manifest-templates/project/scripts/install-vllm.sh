#!/bin/bash
# writes the manifest, then applies it
set -e
cat <<EOF >>vllm-llama.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-llama
spec:
  replicas: 1
  selector:
    matchLabels:
      app: vllm-llama
  template:
    metadata:
      labels:
        app: vllm-llama
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.9.2
        command: ["/bin/sh", "-c"]
        args: [
          "vllm serve meta-llama/Llama-3.2-1B-Instruct --max-model-len 4096"
        ]
        resources:
          limits:
            nvidia.com/gpu: "1"
EOF
kubectl apply -f vllm-llama.yaml
