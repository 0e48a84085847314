# rendered with envsubst before kubectl apply
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-fast
  namespace: ${NAMESPACE}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: vllm-fast
  template:
    metadata:
      labels:
        app: vllm-fast
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.11.0
          resources:
            limits:
              nvidia.com/gpu: "1"
${EXTRA_LIMITS}
          command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
          args:
            - "--model"
            - "Qwen/Qwen2.5-1.5B-Instruct"
            - "--max-model-len"
            - "8192"
            - "--gpu-memory-utilization"
            - "0.85"
          ports:
            - containerPort: 8000
