from dataclasses import dataclass, field
from typing import Optional

from transformers import TrainingArguments


@dataclass
class ScriptArguments:
    dataset_name: str = "openai/gsm8k"


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = None


@dataclass
class GRPOTrainingArguments(TrainingArguments):
    use_vllm: bool = False
    vllm_mode: str = "server"
    vllm_gpu_memory_utilization: float = 0.3
    # kept from TRL 0.17 as deprecated fields of this class
    vllm_device: Optional[str] = field(default=None)
    vllm_max_model_len: Optional[int] = field(default=None)
