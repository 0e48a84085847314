# Stand-in for the DotsOCR vLLM plugin: only the import that fails matters here.
from vllm.model_executor.layers.sampler import SamplerOutput, get_sampler  # noqa: F401
