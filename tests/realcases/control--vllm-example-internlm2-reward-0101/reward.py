# vLLM's offline reward example: a 1.8B decoder reward model run for pooling
from vllm import LLM

llm = LLM(
    model="internlm/internlm2-1_8b-reward",
    runner="pooling",
    enforce_eager=True,
    max_model_len=1024,
    trust_remote_code=True,
)
outputs = llm.reward(["Hello, my name is", "The capital of France is"])
