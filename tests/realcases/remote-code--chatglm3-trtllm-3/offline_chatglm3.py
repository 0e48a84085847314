from vllm import LLM, SamplingParams

prompts = ["你好", "What is TensorRT-LLM?"]
params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=256)

llm = LLM(model="/home/user/vLLM/ChatGLM3-6b")
for out in llm.generate(prompts, params):
    print(out.outputs[0].text)
