from dataclasses import dataclass

from vllm import LLM, SamplingParams


@dataclass
class GenerationArgs:
    num_completions: int = 1
    temperature: float = 0.7
    response_length: int = 2048
    tensor_parallel_size: int = 1


def generate_with_vllm(model_name_or_path: str, prompt_token_ids: list, gen_args: GenerationArgs):
    llm = LLM(
        model=model_name_or_path,
        tensor_parallel_size=gen_args.tensor_parallel_size,
        max_model_len=gen_args.response_length,
    )

    # keep only the prompts the engine can take, so no request is refused
    limit = llm.llm_engine.model_config.max_model_len
    kept = [ids for ids in prompt_token_ids if len(ids) < limit]
    print(f"dropped {len(prompt_token_ids) - len(kept)} prompts over the length limit")

    params = SamplingParams(n=gen_args.num_completions, temperature=gen_args.temperature,
                            max_tokens=gen_args.response_length)
    return llm.generate([{"prompt_token_ids": ids} for ids in kept], params)


if __name__ == "__main__":
    generate_with_vllm("allenai/Llama-3.1-Tulu-3-8B-SFT", [[1, 2, 3]], GenerationArgs())
