from vllm import LLM, SamplingParams

llm = LLM(model="TheBloke/Qwen-14B-Chat-AWQ", trust_remote_code=True,
          quantization="awq", tensor_parallel_size=1)
params = SamplingParams(temperature=0.7, max_tokens=512)
