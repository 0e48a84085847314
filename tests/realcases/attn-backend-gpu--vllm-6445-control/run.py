import os

os.environ["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"  # Gemma 2's soft-capping needs FlashInfer in 0.5.2

from vllm import LLM

llm = LLM("google/gemma-2-27b-it")
print(llm.generate("Hello")[0].outputs[0].text)
