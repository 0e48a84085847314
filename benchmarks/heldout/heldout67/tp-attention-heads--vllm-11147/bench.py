from vllm import LLM, SamplingParams

number_gpus = 6
max_model_len = 8192
sampling_params = SamplingParams(temperature=0.6, top_p=0.9, max_tokens=256)
prompts = ["Hello world!"]

model_id = "./models/Llama-3.1-70B-Instruct"
llm = LLM(model=model_id, tensor_parallel_size=number_gpus, max_model_len=max_model_len)

for _ in range(20):
    outputs = llm.generate(prompts, sampling_params)
    print(outputs[0].outputs[0].text)
