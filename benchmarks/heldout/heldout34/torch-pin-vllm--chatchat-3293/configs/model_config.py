LLM_MODELS = ["chatglm3-6b"]
LLM_DEVICE = "cuda"
MODEL_PATH = {
    "llm_model": {
        "chatglm3-6b": "THUDM/chatglm3-6b",
    },
}
