from vllm import LLM

llm = LLM(
    model="openai/gpt-oss-20b",
    tensor_parallel_size=1,
    max_num_seqs=1,
    max_model_len=8192,
    enable_chunked_prefill=True,
    enable_prefix_caching=False,
)
print(llm.generate(["Hello"])[0].outputs[0].text)
