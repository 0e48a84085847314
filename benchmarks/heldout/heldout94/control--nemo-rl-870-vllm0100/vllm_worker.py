"""Generation worker in the NeMo-RL style: engine keywords gathered in a dict, then vllm.LLM(**kwargs)."""
import ray
import vllm


@ray.remote(num_gpus=1)
class VllmGenerationWorker:
    def __init__(self, model_name: str, max_model_len: int = 4096):
        llm_kwargs = dict(
            model=model_name,
            load_format="auto",
            skip_tokenizer_init=False,
            tensor_parallel_size=1,
            gpu_memory_utilization=0.6,
            enable_prefix_caching=True,
            dtype="bfloat16",
            seed=42,
            enforce_eager=False,
            max_model_len=max_model_len,
            trust_remote_code=True,
            enable_sleep_mode=True,
            logprobs_mode="raw_logprobs",
        )
        self.llm = vllm.LLM(**llm_kwargs)

    def generate(self, prompts):
        params = vllm.SamplingParams(max_tokens=128, logprobs=0)
        return self.llm.generate(prompts, params)


if __name__ == "__main__":
    ray.init()
    worker = VllmGenerationWorker.remote("Qwen/Qwen2.5-1.5B-Instruct")
    print(ray.get(worker.generate.remote(["What is 2 + 3?"])))
