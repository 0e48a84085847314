import os

# the V0 engine: V1 takes no per-request logits processors in this release
os.environ["VLLM_USE_V1"] = "0"

from vllm import LLM, SamplingParams
from vllm.model_executor.models.registry import ModelRegistry

from deepseek_ocr import DeepseekOCRForCausalLM
from process.ngram_norepeat import NoRepeatNGramLogitsProcessor

ModelRegistry.register_model("DeepseekOCRForCausalLM", DeepseekOCRForCausalLM)

llm = LLM(
    model="deepseek-ai/DeepSeek-OCR",
    hf_overrides={"architectures": ["DeepseekOCRForCausalLM"]},
    block_size=256,
    trust_remote_code=True,
    max_model_len=4096,
    swap_space=0,
    max_num_seqs=2,
    gpu_memory_utilization=0.9,
    disable_mm_preprocessor_cache=True,
)

params = SamplingParams(
    temperature=0.0,
    max_tokens=4096,
    logits_processors=[NoRepeatNGramLogitsProcessor(ngram_size=20, window_size=50)],
    skip_special_tokens=False,
)
