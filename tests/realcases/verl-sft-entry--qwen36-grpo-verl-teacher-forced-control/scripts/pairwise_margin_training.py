import hydra
from verl.trainer.sft_trainer import SFTTrainer


@hydra.main(config_path="pkg://verl.trainer.config", config_name="sft_trainer_engine", version_base=None)
def main(config):
    trainer = SFTTrainer(config=config)
    trainer.fit()


if __name__ == "__main__":
    main()
