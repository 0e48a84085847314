import os

from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    BASE_DIR: str = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    MODEL_CHECKPOINT: str = "datalab-to/chandra"
    VLLM_MODEL_NAME: str = "chandra"
    VLLM_GPUS: str = "0"

    class Config:
        env_file = "local.env"
        extra = "ignore"


settings = Settings()
