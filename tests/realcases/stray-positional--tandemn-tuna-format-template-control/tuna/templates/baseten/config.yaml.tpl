model_name: {service_name}

base_image:
  image: vllm/vllm-openai:v{vllm_version}

docker_server:
  start_command: >-
    vllm serve /models/{model_cache_folder}
    --served-model-name {model}
    --host 0.0.0.0
    --port 8000
    --max-model-len {max_model_len}
    --tensor-parallel-size {tp_size}
    --gpu-memory-utilization 0.95
    --disable-log-requests
    {eager_flag} {quantization_flag}
  readiness_endpoint: /health
  server_port: 8000

resources:
  accelerator: {gpu}
  use_gpu: true
