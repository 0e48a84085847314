from __future__ import annotations

import contextlib
import os

import bentoml
import fastapi

MAX_TOKENS = 4096
ENGINE_CONFIG = {
    'tensor_parallel_size': 8,
    'trust_remote_code': True,
    'max_model_len': 8192,
    'enable_prefix_caching': True,
}

openai_api_app = fastapi.FastAPI()


@bentoml.asgi_app(openai_api_app, path='/v1')
@bentoml.service(
    name='bentovllm-deepseek-r1-671b-service',
    traffic={'timeout': 300},
    resources={'gpu': 8, 'gpu_type': 'nvidia-h200-141gb'},
    envs=[
        {'name': 'HF_TOKEN'},
        {'name': 'VLLM_ATTENTION_BACKEND', 'value': 'FLASHMLA'},
    ],
)
class VLLM:
    model_id = 'deepseek-ai/DeepSeek-R1'
    model = bentoml.models.HuggingFaceModel(model_id, exclude=['*.pth', '*.pt'])

    def __init__(self):
        self.exit_stack = contextlib.AsyncExitStack()

    @bentoml.on_startup
    async def init_engine(self) -> None:
        import vllm.entrypoints.openai.api_server as vllm_api_server
        from vllm.entrypoints.openai.cli_args import make_arg_parser
        from vllm.utils import FlexibleArgumentParser

        # start from vLLM's own defaults, then overwrite
        args = make_arg_parser(FlexibleArgumentParser()).parse_args([])
        args.model = self.model
        args.disable_log_requests = True
        args.served_model_name = [self.model_id]
        args.disable_log_stats = True
        for key, value in ENGINE_CONFIG.items():
            setattr(args, key, value)

        self.engine = await self.exit_stack.enter_async_context(vllm_api_server.build_async_engine_client(args))
        await vllm_api_server.init_app_state(self.engine, await self.engine.get_model_config(), openai_api_app.state, args)
