# Offline batch inference on a locally converted (Hugging Face format) InternVL3-8B.
from vllm import LLM, SamplingParams

MODEL_PATH = "./InternVL3-8B-hf"

llm = LLM(
    model=MODEL_PATH,
    trust_remote_code=True,
    max_model_len=8192,
    limit_mm_per_prompt={"image": 1},
)
params = SamplingParams(temperature=0.0, max_tokens=256)
