import vllm


class LLMActor:
    def __init__(self, *args, **kwargs):
        kwargs["enforce_eager"] = True
        self.llm = vllm.LLM(*args, **kwargs)


actor = LLMActor(model="Qwen/Qwen2.5-7B", tensor_parallel_size=1, gpu_memory_utilization=0.35)
