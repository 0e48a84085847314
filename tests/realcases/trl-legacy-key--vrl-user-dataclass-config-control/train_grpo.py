from dataclasses import dataclass

from trl import GRPOConfig, GRPOTrainer, TrlParser


@dataclass
class RunArgs:
    model_name: str
    output_dir: str
    use_vllm: bool
    vllm_max_model_len: int
    max_prompt_length: int
    max_completion_length: int
    question_index: int


args = TrlParser(dataclass_types=[RunArgs]).parse_args_and_config()[0]
config = GRPOConfig(
    output_dir=args.output_dir,
    use_vllm=True,
    vllm_max_model_length=args.vllm_max_model_len,
    max_prompt_length=args.max_prompt_length,
    max_completion_length=args.max_completion_length,
)
GRPOTrainer(model=args.model_name, reward_funcs=[], args=config).train()
