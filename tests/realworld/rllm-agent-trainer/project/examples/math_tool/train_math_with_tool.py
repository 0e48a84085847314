import hydra

from rllm.agents import ToolAgent
from rllm.environments.tools.tool_env import ToolEnvironment
from rllm.trainer.agent_trainer import AgentTrainer


@hydra.main(config_path="pkg://rllm.trainer.config", config_name="agent_ppo_trainer", version_base=None)
def main(config):
    trainer = AgentTrainer(agent_class=ToolAgent, env_class=ToolEnvironment, config=config)
    trainer.train()


if __name__ == "__main__":
    main()
