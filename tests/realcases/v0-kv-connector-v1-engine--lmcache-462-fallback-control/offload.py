# The V0 LMCache connector with the engine left at vLLM's default.
from vllm import LLM
from vllm.config import KVTransferConfig

ktc = KVTransferConfig.from_cli('{"kv_connector":"LMCacheConnector", "kv_role":"kv_both"}')
llm = LLM(model="mistralai/Mistral-7B-Instruct-v0.2", kv_transfer_config=ktc,
          max_model_len=8000, enable_chunked_prefill=False, gpu_memory_utilization=0.8)
