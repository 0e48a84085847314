from vllm import LLM, SamplingParams

MODEL = "/volumes/repos/LLaVA-NeXT/LLaVA-Video-7B-Qwen2"

llm = LLM(model=MODEL, trust_remote_code=True, max_model_len=8192,
          gpu_memory_utilization=0.6, disable_log_stats=True)
params = SamplingParams(max_tokens=256)
