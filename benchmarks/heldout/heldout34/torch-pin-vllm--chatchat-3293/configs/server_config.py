DEFAULT_BIND_HOST = "0.0.0.0"
FSCHAT_MODEL_WORKERS = {
    "default": {
        "host": DEFAULT_BIND_HOST,
        "port": 20002,
        "device": "cuda",
        "infer_turbo": "vllm",
        "gpus": "0,1",
        "num_gpus": 2,
        "max_gpu_memory": "22GiB",
        "limit_worker_concurrency": 20,
    },
}
