"""A module that parses vLLM's own arguments and no command of the project runs (an entry-point
orphan): the arguments its unseen command line may set are unknown, never options the project wrote."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

MODULE = '''from vllm.utils import FlexibleArgumentParser
from vllm.engine.async_llm_engine import AsyncEngineArgs, AsyncLLMEngine


def initialize_engine(args):
    return AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))


parser = AsyncEngineArgs.add_cli_args(FlexibleArgumentParser())
args = parser.parse_args()
engine = initialize_engine(args)
'''


def test_unknown_arguments_of_an_orphan_module_are_no_removed_options(write_project):
    # swap_space is among the arguments sized by the command line; vLLM 0.34.0 has no such option, but the
    # project never passes it (eval70: LLMInfra infra/vllm_engine.py, a false not-in-version P0 with "remove ''")
    root = write_project({"requirements.txt": "vllm==0.34.0\n", "infra/vllm_engine.py": MODULE})
    (sr,) = [s for s in audit(root, gpu="H100-80GB x8").sites if s.site.file == "infra/vllm_engine.py"]
    assert not [f for f in sr.remarks if f.code == "not-in-version"]
    assert sr.site.settings["swap_space"].resolved is False  # still unknown to the checks that size memory
