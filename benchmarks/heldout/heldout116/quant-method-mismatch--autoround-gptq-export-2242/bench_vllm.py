# CI step of a quantization toolkit: a Qwen3-1.7B checkpoint exported in the
# auto_gptq format is loaded with vLLM, forcing the toolkit's own method name.
from vllm import LLM, SamplingParams

MODEL_PATH = "./saved_auto_gptq_w4"

llm = LLM(
    model=MODEL_PATH,
    quantization="auto-round",
    trust_remote_code=True,
    tensor_parallel_size=1,
    gpu_memory_utilization=0.8,
    max_model_len=2048,
    dtype="auto",
    enforce_eager=False,
)
print(llm.generate(["Hello"], SamplingParams(max_tokens=64))[0].outputs[0].text)
