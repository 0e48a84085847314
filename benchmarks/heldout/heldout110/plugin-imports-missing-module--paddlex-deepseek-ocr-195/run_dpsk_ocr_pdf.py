# Reduced from DeepSeek-OCR's vLLM PDF script (the repo's own model class is registered before the engine is
# built); the failure comes while the engine arguments are constructed.
import os
os.environ["VLLM_USE_V1"] = "1"
os.environ["CUDA_VISIBLE_DEVICES"] = "0"

from deepseek_ocr import DeepseekOCRForCausalLM  # model code shipped in the DeepSeek-OCR-vllm folder
from vllm.model_executor.models.registry import ModelRegistry
from vllm import LLM, SamplingParams

ModelRegistry.register_model("DeepseekOCRForCausalLM", DeepseekOCRForCausalLM)

llm = LLM(
    model="deepseek-ai/DeepSeek-OCR",
    hf_overrides={"architectures": ["DeepseekOCRForCausalLM"]},
    block_size=256,
    enforce_eager=False,
    trust_remote_code=True,
    max_model_len=8192,
    swap_space=0,
    max_num_seqs=100,
    tensor_parallel_size=1,
    gpu_memory_utilization=0.9,
    disable_mm_preprocessor_cache=True,
)
print(llm.generate(["<image>\nFree OCR."], SamplingParams(max_tokens=64)))
