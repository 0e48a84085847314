from vllm import LLM

llm = LLM(model="meta-llama/Llama-2-7b-hf", tokenizer="meta-llama/Llama-2-7b-hf", quantization=None,
          tensor_parallel_size=1, seed=0, trust_remote_code=False, dtype="auto", max_model_len=None,
          enforce_eager=False)
