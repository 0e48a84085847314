import os

MODEL_ROOT_PATH = ""
EMBEDDING_MODEL = "m3e-base"
EMBEDDING_DEVICE = "auto"

LLM_MODELS = ["Qwen-14B-Chat"]
LLM_DEVICE = "auto"

MODEL_PATH = {
    "embed_model": {
        "m3e-base": "moka-ai/m3e-base",
    },
    "llm_model": {
        "Qwen-14B-Chat": "Qwen/Qwen-14B-Chat",
    },
}

VLLM_MODEL_DICT = {
    "Qwen-14B-Chat": "Qwen/Qwen-14B-Chat",
}
