import os
from vllm import AsyncLLMEngine
from vllm.engine.arg_utils import AsyncEngineArgs

# the worker builds its engine arguments from the endpoint's environment
engine_args = AsyncEngineArgs(model=os.environ["MODEL_NAME"], max_model_len=8192)
engine = AsyncLLMEngine.from_engine_args(engine_args)
