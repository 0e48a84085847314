import os

os.environ["VLLM_ATTENTION_BACKEND"] = "XFORMERS"

from vllm import LLM, SamplingParams

llm = LLM(model="/home/user/LegalPrecedent/Llama-3.1-8B-Instruct-Uncensored", dtype="float32")
print(llm.generate(["The court held that"], SamplingParams(max_tokens=32)))
