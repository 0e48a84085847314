from vllm import LLM, SamplingParams

# flexeval's vLLM wrapper after #76: chunked prefill on, the sliding window turned off by default
llm = LLM(model="mistralai/Mistral-7B-v0.1", enable_chunked_prefill=True, disable_sliding_window=True)
outputs = llm.generate(["Question: what is 2 + 2?\nAnswer:"], SamplingParams(max_tokens=16, temperature=0.0))
