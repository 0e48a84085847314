from trl import TrlParser

from arguments import GRPOTrainingArguments, ModelArguments, ScriptArguments
from grpo_trainer import GRPOTrainer


def main():
    parser = TrlParser((ScriptArguments, GRPOTrainingArguments, ModelArguments))
    script_args, training_args, model_args = parser.parse_args_and_config()
    GRPOTrainer(model=model_args.model_name_or_path, args=training_args).train()


if __name__ == "__main__":
    main()
