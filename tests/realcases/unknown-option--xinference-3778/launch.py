# Qwen2.5-VL-32B on Xinference's vLLM engine, the extra parameter spelt as on vLLM's command line.
from xinference.client import Client

client = Client("http://127.0.0.1:9997")
uid = client.launch_model(
    model_engine="vllm",
    model_name="qwen2.5-vl-instruct",
    model_size_in_billions=32,
    model_format="pytorch",
    n_gpu=2,
    **{"limit-mm-per-prompt": '{"image":8}'},
)
print(uid)
