import json
import sys

from vllm import LLM, SamplingParams

the_path = sys.argv[1] if len(sys.argv) > 1 else "meta-llama/Meta-Llama-3-8B-Instruct"
with open("prompts.json") as f:
    prompts = json.load(f)

llm = LLM(model=the_path, gpu_memory_utilization=0.8, tensor_parallel_size=2)
outputs = llm.generate(prompts, SamplingParams(max_tokens=512))
json.dump([o.outputs[0].text for o in outputs], open("out.json", "w"))
