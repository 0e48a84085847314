# What WeClone's `weclone-cli make-dataset` does when it scores chat records with the LLM:
# it hands LLaMA-Factory's vllm_infer the model from settings.jsonc, and vllm_infer builds
# an engine with the model's own dtype (infer_dtype "auto").
from vllm import LLM, SamplingParams

llm = LLM(
    model="./Qwen2.5-7B-Instruct",
    dtype="auto",
    trust_remote_code=True,
    gpu_memory_utilization=0.9,
)
print(llm.generate(["评分："], SamplingParams(temperature=0, max_tokens=50)))
