from vllm import LLM

llm = LLM(model="cognitivecomputations/WizardLM-33B-V1.0-Uncensored", tensor_parallel_size=8)
