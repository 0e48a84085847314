import sys
from configs.model_config import LLM_DEVICE

DEFAULT_BIND_HOST = "0.0.0.0" if sys.platform != "win32" else "127.0.0.1"

FSCHAT_MODEL_WORKERS = {
    "default": {
        "host": DEFAULT_BIND_HOST,
        "port": 20002,
        "device": LLM_DEVICE,
        # inference acceleration through the FastChat vLLM worker
        "infer_turbo": 'vllm',
    },
}
