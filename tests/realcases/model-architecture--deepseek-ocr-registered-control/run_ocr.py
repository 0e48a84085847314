import os

os.environ["VLLM_USE_V1"] = "0"

from vllm import LLM, SamplingParams
from vllm.model_executor.models.registry import ModelRegistry

from deepseek_ocr import DeepseekOCRForCausalLM

ModelRegistry.register_model("DeepseekOCRForCausalLM", DeepseekOCRForCausalLM)

llm = LLM(
    model="deepseek-ai/DeepSeek-OCR",
    hf_overrides={"architectures": ["DeepseekOCRForCausalLM"]},
    block_size=256,
    trust_remote_code=True,
    max_model_len=8192,
    swap_space=0,
    max_num_seqs=32,
    tensor_parallel_size=1,
    gpu_memory_utilization=0.75,
)
print(llm.generate(["<image>\nFree OCR."], SamplingParams(temperature=0.0, max_tokens=64)))
