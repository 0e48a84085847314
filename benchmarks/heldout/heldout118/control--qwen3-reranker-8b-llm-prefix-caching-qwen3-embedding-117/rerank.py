import torch
from vllm import LLM, SamplingParams

number_of_gpu = torch.cuda.device_count()
model = LLM(
    model="Qwen/Qwen3-Reranker-8B",
    tensor_parallel_size=number_of_gpu,
    max_model_len=8192,
    enable_prefix_caching=True,
    gpu_memory_utilization=0.8,
)
# Score yes/no on one generated token, as the model card's vLLM recipe does.
sampling_params = SamplingParams(temperature=0, max_tokens=1, logprobs=20)
