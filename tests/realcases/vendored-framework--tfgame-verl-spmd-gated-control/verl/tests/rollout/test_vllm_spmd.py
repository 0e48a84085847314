from vllm import LLM


def test_spmd():
    llm = LLM(model="Qwen/Qwen2-7B-Instruct", enable_sleep_mode=True, tensor_parallel_size=4,
              distributed_executor_backend="external_launcher", gpu_memory_utilization=0.5)
    assert llm is not None
