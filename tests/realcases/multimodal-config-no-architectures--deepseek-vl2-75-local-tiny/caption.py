# Caption one image with the local deepseek-vl2-tiny download through vLLM's offline engine.
from vllm import LLM, SamplingParams

llm = LLM(model="checkpoints/deepseek-vl2-tiny", trust_remote_code=True, max_model_len=4096)
out = llm.generate({"prompt": "<image>\nDescribe the picture.", "multi_modal_data": {"image": None}},
                   SamplingParams(max_tokens=64))
print(out[0].outputs[0].text)
