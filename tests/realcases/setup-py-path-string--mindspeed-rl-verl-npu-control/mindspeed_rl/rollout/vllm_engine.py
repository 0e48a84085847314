from vllm import LLM, SamplingParams

from mindspeed_rl.rollout.reuse_patch import cached_embeddings


class VLLMInferEngine:
    def __init__(self, tokenizer_name_or_path, infer_tensor_parallel_size=4, max_num_seqs=64, max_model_len=8192):
        self.sampling_params = SamplingParams(temperature=1.0, max_tokens=2048)
        self.llm = LLM(
            model=tokenizer_name_or_path,
            tensor_parallel_size=infer_tensor_parallel_size,
            distributed_executor_backend="external_launcher",
            max_num_seqs=max_num_seqs,
            max_model_len=max_model_len,
        )
        self.reuse = cached_embeddings
