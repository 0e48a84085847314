from dataclasses import dataclass

from trl import GRPOConfig, GRPOTrainer, TrlParser


@dataclass
class RunArgs:
    model_name: str
    vllm_max_model_len: int


args = TrlParser(dataclass_types=[RunArgs]).parse_args_and_config()[0]
config = GRPOConfig(
    output_dir="out",
    use_vllm=True,
    vllm_max_model_len=args.vllm_max_model_len,
)
GRPOTrainer(model=args.model_name, reward_funcs=[], args=config).train()
