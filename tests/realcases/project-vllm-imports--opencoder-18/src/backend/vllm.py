"""The vLLM backend: one engine per model, torn down after generation so the next model fits."""
import gc

import torch
from vllm import LLM, SamplingParams
from vllm.distributed.parallel_state import destroy_distributed_environment, destroy_model_parallel


class VllmGenerator:
    def __init__(self, model_name: str, max_tokens: int = 1024, num_gpus: int = 1):
        self.max_tokens = max_tokens
        self.model = LLM(model=model_name, max_model_len=max_tokens, tensor_parallel_size=num_gpus,
                         trust_remote_code=True)

    def release(self):
        destroy_model_parallel()
        destroy_distributed_environment()
        del self.model
        gc.collect()
        torch.cuda.empty_cache()

    def generate(self, prompts):
        params = SamplingParams(n=1, temperature=0.0, max_tokens=self.max_tokens)
        out = [o.outputs[0].text for o in self.model.generate(prompts, params)]
        self.release()
        return out
