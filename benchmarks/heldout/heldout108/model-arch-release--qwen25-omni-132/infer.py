import os
os.environ['VLLM_USE_V1'] = '0'
os.environ["CUDA_VISIBLE_DEVICES"] = "4"
from vllm import LLM, SamplingParams

MODEL_PATH = "Qwen/Qwen2.5-Omni-7B"
llm = LLM(model=MODEL_PATH, trust_remote_code=True, gpu_memory_utilization=0.8,
          seed=1234, tensor_parallel_size=1)
params = SamplingParams(temperature=1e-6, max_tokens=256)
