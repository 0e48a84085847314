from vllm import LLM

# the batch budget sized to the harness's short prompts
llm = LLM(model="google/gemma-4-31b-it", max_model_len=4096, max_num_batched_tokens=512)
