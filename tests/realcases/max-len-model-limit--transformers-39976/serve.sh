vllm serve ./Qwen3-30B-A3B-Q4_K_M.gguf --tokenizer Qwen/Qwen3-30B-A3B --max-model-len 131072
