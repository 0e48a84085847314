import torch
from transformers import Trainer
from vllm import LLM, SamplingParams


class Qwen2VLGRPOVLLMTrainer(Trainer):
    def __init__(self, model, args, vllm_device="cuda:7"):
        super().__init__(model=model, args=args)
        self.llm = LLM(
            model="Qwen/Qwen2-VL-2B-Instruct",
            device=vllm_device,
            dtype=torch.bfloat16,
            enable_prefix_caching=True,
            enforce_eager=True,
            max_model_len=args.max_completion_length,
        )
        self.sampling_params = SamplingParams(temperature=1.0, max_tokens=args.max_completion_length)

    def _sync_weights(self, state_dict):
        runner = self.llm.llm_engine.model_executor.driver_worker.model_runner
        runner.model.load_weights(state_dict.items())
