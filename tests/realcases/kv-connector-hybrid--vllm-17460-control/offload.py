from vllm import LLM
from vllm.config import KVTransferConfig

ktc = KVTransferConfig(kv_connector="LMCacheConnectorV1", kv_role="kv_both")
llm = LLM(model="meta-llama/Meta-Llama-3.1-8B-Instruct", kv_transfer_config=ktc,
          max_model_len=8000, gpu_memory_utilization=0.8)
