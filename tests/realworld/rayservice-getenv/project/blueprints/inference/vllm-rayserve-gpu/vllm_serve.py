import os

from ray import serve
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


@serve.deployment(name="mistral-deployment", route_prefix="/vllm",
                  ray_actor_options={"num_gpus": 1},
                  autoscaling_config={"min_replicas": 1, "max_replicas": 2})
class VLLMDeployment:
    def __init__(self, **kwargs):
        args = AsyncEngineArgs(
            model=os.getenv("MODEL_ID", "mistralai/Mistral-7B-Instruct-v0.2"),
            gpu_memory_utilization=float(os.getenv("GPU_MEMORY_UTILIZATION", "0.8")),
            max_model_len=int(os.getenv("MAX_MODEL_LEN", "4096")),
            max_num_seqs=int(os.getenv("MAX_NUM_SEQ", "512")),
            max_num_batched_tokens=int(os.getenv("MAX_NUM_BATCHED_TOKENS", "32768")),
            trust_remote_code=True,
            enable_chunked_prefill=True,
            max_parallel_loading_workers=2,
            tensor_parallel_size=1,
        )
        self.engine = AsyncLLMEngine.from_engine_args(args)

    async def __call__(self, request):
        ...


deployment = VLLMDeployment.bind()
