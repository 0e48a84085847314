# The project's chat route imports vLLM's guided decoding helper, which imports
# vllm.entrypoints.openai.protocol (pydantic v2's model_validator) at import time.
from vllm.model_executor.guided_decoding import get_guided_decoding_logits_processor
from vllm.sampling_params import SamplingParams
