# vLLM's LMCache CPU-offload example in its V1 mode: the V1 engine gets the V1 connector.
from vllm import LLM, SamplingParams
from vllm.config import KVTransferConfig

ktc = KVTransferConfig(kv_connector="LMCacheConnectorV1", kv_role="kv_both")
llm = LLM(model="mistralai/Mistral-7B-Instruct-v0.2", kv_transfer_config=ktc,
          max_model_len=8000, gpu_memory_utilization=0.8)
print(llm.generate(["Hello"], SamplingParams(max_tokens=10)))
