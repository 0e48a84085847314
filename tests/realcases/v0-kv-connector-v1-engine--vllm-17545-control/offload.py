# The same V0 LMCache example after its fix: the V0 engine is selected before vLLM is imported.
import os

os.environ["VLLM_USE_V1"] = "0"

from vllm import LLM, SamplingParams  # noqa: E402
from vllm.config import KVTransferConfig  # noqa: E402

ktc = KVTransferConfig(kv_connector="LMCacheConnector", kv_role="kv_both")
llm = LLM(model="mistralai/Mistral-7B-Instruct-v0.2", kv_transfer_config=ktc,
          max_model_len=8000, gpu_memory_utilization=0.8, enable_chunked_prefill=True)
print(llm.generate(["Hello"], SamplingParams(max_tokens=10)))
