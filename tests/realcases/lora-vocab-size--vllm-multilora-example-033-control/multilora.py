from vllm import EngineArgs, LLMEngine


def initialize_engine() -> LLMEngine:
    args = EngineArgs(model="meta-llama/Llama-2-7b-hf", enable_lora=True, max_loras=1, max_lora_rank=8,
                      max_cpu_loras=2, max_num_seqs=256)
    return LLMEngine.from_engine_args(args)


if __name__ == "__main__":
    engine = initialize_engine()
