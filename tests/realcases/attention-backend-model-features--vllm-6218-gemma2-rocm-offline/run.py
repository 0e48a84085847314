import os

# set before vLLM is imported, as the error message asks
os.environ["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"

from vllm import LLM, SamplingParams

llm = LLM(model="google/gemma-2-9b-it")
print(llm.generate(["Hello"], SamplingParams(max_tokens=16))[0].outputs[0].text)
