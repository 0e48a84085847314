import os

from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

os.environ["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"


class Model:
    def __init__(self, **kwargs):
        self.llm_engine = None

    def load(self):
        args = AsyncEngineArgs(
            model="google/gemma-2-27b-it",
            trust_remote_code=True,
            tensor_parallel_size=1,
            max_num_seqs=16,
            dtype="auto",
            use_v2_block_manager=True,
            enforce_eager=True,
        )
        self.llm_engine = AsyncLLMEngine.from_engine_args(args)
