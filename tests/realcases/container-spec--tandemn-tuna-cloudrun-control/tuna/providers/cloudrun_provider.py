import json

VLLM_PORT = 8000
DEFAULT_IMAGE = "vllm/vllm-openai:v0.15.1"


class CloudRunProvider:
    def plan(self, request, service_name):
        # the server's flags; one GPU per instance
        container_args = [
            "--model", request.model_name,
            "--host", "0.0.0.0",
            "--port", str(VLLM_PORT),
            "--max-model-len", str(request.max_model_len),
            "--tensor-parallel-size", "1",
            "--gpu-memory-utilization", "0.95",
            "--disable-log-requests",
        ]
        if request.cold_start_mode == "fast_boot":
            container_args.append("--enforce-eager")
        metadata: dict[str, str] = {
            "service_name": service_name,
            "image": DEFAULT_IMAGE,
            "container_port": str(VLLM_PORT),
            "container_args": json.dumps(container_args),
        }
        return metadata
