from vllm import LLM, SamplingParams

prompts = ["Hello, my name is", "The capital of France is"]
sampling_params = SamplingParams(temperature=0.8, top_p=0.95)
llm = LLM(model="./models/llama-2-7b-hf", quantization="awq", dtype="half")
outputs = llm.generate(prompts, sampling_params)
