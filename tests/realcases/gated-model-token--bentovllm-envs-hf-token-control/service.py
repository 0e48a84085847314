import bentoml
import pydantic


class BentoArgs(pydantic.BaseModel):
    tp: int = 1
    port: int = 8000
    model_id: str = "meta-llama/Meta-Llama-3.1-8B-Instruct"
    envs: list[dict[str, str]] = pydantic.Field(default_factory=list)


bento_args = bentoml.use_arguments(BentoArgs)


@bentoml.service(envs=bento_args.envs, resources={"gpu": bento_args.tp})
class LLM:
    hf = bentoml.models.HuggingFaceModel(bento_args.model_id.lower())

    def __command__(self) -> list[str]:
        return ["vllm", "serve", self.hf, "--port", str(bento_args.port),
                "--served-model-name", bento_args.model_id]
