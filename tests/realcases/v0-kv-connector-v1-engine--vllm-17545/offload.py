# LMCache CPU offload through the V0-engine connector, as vLLM's example offered it with "-v v0".
from vllm import LLM, SamplingParams
from vllm.config import KVTransferConfig

ktc = KVTransferConfig(kv_connector="LMCacheConnector", kv_role="kv_both")
llm = LLM(model="mistralai/Mistral-7B-Instruct-v0.2", kv_transfer_config=ktc,
          max_model_len=8000, gpu_memory_utilization=0.8, enable_chunked_prefill=True)
print(llm.generate(["Hello"], SamplingParams(max_tokens=10)))
