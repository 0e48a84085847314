from vllm import LLM, SamplingParams

prompts = ["The president of the United States is"]
sampling_params = SamplingParams(temperature=0.8, top_p=0.95)
llm = LLM(model="./models/open_llama_3b", gpu_memory_utilization=0.3)
for output in llm.generate(prompts, sampling_params):
    print(output.prompt, output.outputs[0].text)
