from vllm import LLM, SamplingParams

# the MLP speculator draft that the speculative-decoding docs pair with Llama 3.1 8B
llm = LLM(
    model="meta-llama/Meta-Llama-3.1-8B-Instruct",
    speculative_config={
        "model": "ibm-ai-platform/llama3-8b-accelerator",
        "method": "mlp_speculator",
    },
)
print(llm.generate(["The capital of France is"], SamplingParams(max_tokens=16)))
