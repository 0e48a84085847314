from vllm import LLM

# the GGUF weights, with the config and tokenizer of the original checkpoint
llm = LLM(
    model="gemma-3-27b-it-GGUF/gemma-3-27b-it-Q4_K_M.gguf",
    tokenizer="google/gemma-3-27b-it",
    hf_config_path="google/gemma-3-27b-it",
    tensor_parallel_size=2,
)
