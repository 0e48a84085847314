from vllm import LLM, SamplingParams

# flexeval's vLLM wrapper after #75: chunked prefill always on, the model the evaluation names
llm = LLM(model="mistralai/Mistral-7B-v0.1", enable_chunked_prefill=True)
outputs = llm.generate(["Question: what is 2 + 2?\nAnswer:"], SamplingParams(max_tokens=16, temperature=0.0))
