"""A BentoML service that serves a 671B checkpoint over every GPU of its instance: the tensor
parallel size is the visible device count, added to the command by a helper property."""
from __future__ import annotations

import os

import bentoml
import pydantic


class Args(pydantic.BaseModel):
    tp: int = 1
    gpu_type: str = "nvidia-h100-80gb"
    model_id: str = "deepseek-ai/DeepSeek-R1-0528"
    cli_args: list[str] = pydantic.Field(default_factory=list)

    @property
    def extra_cli_args(self) -> list[str]:
        import torch

        auto = str(os.environ.get("TP_AUTO_ALLOCATE", True)).lower() in {"1", "true", "yes"}
        tp = torch.cuda.device_count() if auto else self.tp
        return ["-tp", f"{tp}", *self.cli_args]


args = bentoml.use_arguments(Args)


@bentoml.service(name="deepseek-r1", resources={"gpu": args.tp, "gpu_type": args.gpu_type})
class LLM:
    hf = bentoml.models.HuggingFaceModel(args.model_id.lower())

    def __command__(self) -> list[str]:
        return ["vllm", "serve", self.hf, "--port", "8000", *args.extra_cli_args,
                "--served-model-name", args.model_id]
