from smolagents.models import VLLMModel

model = VLLMModel(
    model_id="Qwen/Qwen2.5-0.5B-Instruct",
    model_kwargs={"max_model_len": 2048, "dtype": "float16"},
)
