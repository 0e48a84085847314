# Xinference launch of Qwen2.5-VL-32B on the vLLM engine with the extra parameter typed as on the vLLM command line
# (the web UI's "extra parameters" field forwards the key unchanged into the engine kwargs).
from xinference.client import Client

client = Client("http://127.0.0.1:9997")
uid = client.launch_model(
    model_engine="vllm",
    model_name="qwen2.5-vl-instruct",
    model_size_in_billions=32,
    model_format="pytorch",
    **{"limit-mm-per-prompt": '{"image":8}'},
)
print(uid)
