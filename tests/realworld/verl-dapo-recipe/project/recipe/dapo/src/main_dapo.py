"""Entry point of the DAPO recipe: the trainer config lives next to this file."""
import hydra
import ray


@hydra.main(config_path="config", config_name="dapo_trainer", version_base=None)
def main(config):
    if not ray.is_initialized():
        ray.init(runtime_env={"env_vars": {"TOKENIZERS_PARALLELISM": "true"}})
    from .dapo_ray_trainer import RayDAPOTrainer

    trainer = RayDAPOTrainer(config=config)
    trainer.init_workers()
    trainer.fit()


if __name__ == "__main__":
    main()
