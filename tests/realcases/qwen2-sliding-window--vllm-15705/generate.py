from vllm import LLM, SamplingParams

llm = LLM(model="models/Qwen2.5-7B-Instruct", dtype="float16", tensor_parallel_size=1,
          max_num_seqs=64, max_model_len=None, gpu_memory_utilization=0.9)
outputs = llm.generate(["Hello"], SamplingParams(temperature=0.0, max_tokens=256))
