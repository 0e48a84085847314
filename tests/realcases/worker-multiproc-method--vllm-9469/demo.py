import os
os.environ["CUDA_VISIBLE_DEVICES"] = "1,2"

from transformers.utils import is_torch_cuda_available
print("cuda:", is_torch_cuda_available())

from vllm import LLM, SamplingParams

llm = LLM(model="/localnvme/models/llama-3-8b", tensor_parallel_size=2)
params = SamplingParams(temperature=0.8, top_p=0.95)
for out in llm.generate(["Hello, my name is"] * 3, params):
    print(out.outputs[0].text)
