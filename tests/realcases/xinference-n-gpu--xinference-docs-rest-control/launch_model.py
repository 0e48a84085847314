"""Launch the local Qwen1.5 checkpoint on the vLLM engine over Xinference's REST API."""
import requests

ENDPOINT = "http://127.0.0.1:9997"

resp = requests.post(
    ENDPOINT + "/v1/models",
    headers={"accept": "application/json"},
    json={
        "model_engine": "vllm",
        "model_name": "qwen1.5-chat",
        "model_path": "/models/Qwen1.5-7B-Chat",
        "n_gpu": 1,
        "max_model_len": 8192,
    },
    timeout=600,
)
resp.raise_for_status()
print(resp.json()["model_uid"])
