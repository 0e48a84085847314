# Offline OCR of rendered PDF pages with DeepSeek-OCR; the repo's own model class is registered first.
from deepseek_ocr import DeepseekOCRForCausalLM
from vllm import LLM, SamplingParams
from vllm.model_executor.models.registry import ModelRegistry

ModelRegistry.register_model("DeepseekOCRForCausalLM", DeepseekOCRForCausalLM)

llm = LLM(
    model="deepseek-ai/DeepSeek-OCR",
    hf_overrides={"architectures": ["DeepseekOCRForCausalLM"]},
    trust_remote_code=True,
    max_model_len=8192,
    gpu_memory_utilization=0.9,
)
print(llm.generate(["<image>\nFree OCR."], SamplingParams(max_tokens=64)))
